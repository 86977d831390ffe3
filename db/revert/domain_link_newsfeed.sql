ALTER TABLE maps.link_operations DROP COLUMN newsfeed_id;
