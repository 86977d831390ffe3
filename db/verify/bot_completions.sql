SELECT user_id, map_name, level, updated_at FROM maps.mastery WHERE false;
