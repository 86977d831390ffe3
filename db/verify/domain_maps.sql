SELECT 1 / (core.difficulty_label(10) = 'Hell')::integer;
SELECT 'core.maps_keep_links_symmetric()'::regprocedure;
SELECT id, code, map_name, category, checkpoints, official, playtesting, hidden, archived,
       raw_difficulty, difficulty, linked_code, created_at, updated_at
FROM core.maps WHERE false;
SELECT map_id, user_id, is_primary FROM maps.creators WHERE false;
SELECT id, map_id, user_id, url, inserted_at FROM maps.guides WHERE false;
SELECT id, official_map_id, unofficial_map_id, linked_at FROM maps.link_operations WHERE false;
SELECT id, map_id, code, proposed_changes, reason, created_by, created_at, message_id, accepted,
       resolved_by, resolved_at, rejection_reason
FROM maps.edit_requests WHERE false;
SELECT 'maps.edit_requests_one_pending_per_map'::regclass;
SELECT id, map_id, thread_id, verification_id, initial_difficulty, completed, reset_generation,
       created_at, updated_at
FROM playtests.meta WHERE false;
SELECT 'playtests.meta_one_open_playtest_per_map'::regclass;
SELECT id, user_id, map_id, playtest_thread_id, difficulty, created_at, updated_at FROM playtests.votes WHERE false;
SELECT id, playtest_id, kind, actor_id, details, created_at FROM playtests.transitions WHERE false;
