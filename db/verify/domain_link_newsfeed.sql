SELECT newsfeed_id FROM maps.link_operations WHERE false;
