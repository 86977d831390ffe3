SELECT id, map_id, user_id, time, screenshot, video, verified, verified_by, reason, completion,
       verification_id, message_id, legacy, wr_xp_check, tournament_completion_id, inserted_at
FROM core.completions WHERE false;
SELECT 'core.completions_must_beat_personal_best()'::regprocedure;
SELECT 1 / count(*) FROM pg_trigger
WHERE tgname = 'votes_require_verified_completion' AND tgrelid = 'playtests.votes'::regclass;
SELECT 1 / count(*) FROM pg_constraint
WHERE conname = 'suspicious_flags_completion_id_fkey' AND conrelid = 'users.suspicious_flags'::regclass;
SELECT id, completion_id, verified, verified_by, reason, created_at FROM completions.verification_transitions WHERE false;
SELECT id, user_id, message_id, inserted_at FROM completions.upvotes WHERE false;
SELECT user_id, amount FROM lootbox.xp WHERE false;
SELECT 1 / count(*) FROM lootbox.xp_multiplier WHERE id = 1;
SELECT id, grant_key, user_id, type, base_amount, amount, previous_total, new_total, reason, granted_at
FROM lootbox.xp_grants WHERE false;
SELECT 1 / count(*) FROM lootbox.active_key a JOIN lootbox.key_types k ON k.name = a.key_type;
SELECT id, user_id, key_type, grant_key, item, earned_at FROM lootbox.user_keys WHERE false;
SELECT 1 / (count(*) = 20)::integer FROM lootbox.main_tiers;
SELECT 1 / (count(*) = 5)::integer FROM lootbox.sub_tiers;
