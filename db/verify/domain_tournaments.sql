SELECT 1 / count(*) FROM tournaments.config WHERE id = 1;
SELECT id, name, difficulties, participation_xp, placement_xp, streak_xp, champion_role_id,
       is_active, created_at
FROM tournaments.categories WHERE false;
SELECT id, started_at, ends_at, status, start_announced, created_at FROM tournaments.editions WHERE false;
SELECT id, edition_id, category_id, map_id, status, started_at, ended_at, replaced_by, created_at
FROM tournaments.cycles WHERE false;
SELECT 'tournaments.cycles_one_active_per_edition_category'::regclass;
SELECT id, cycle_id, user_id, map_id, time, screenshot, video, inserted_at, status, verified, completion
FROM tournaments.completions WHERE false;
SELECT 'tournaments.completions_verified_is_terminal()'::regprocedure;
SELECT 1 / count(*) FROM pg_constraint
WHERE conname = 'completions_tournament_completion_id_fkey' AND conrelid = 'core.completions'::regclass;
SELECT id, tournament_completion_id, verified, verified_by, created_at FROM tournaments.verdicts WHERE false;
SELECT id, cycle_id, edition_id, event_type, payload, published, created_at
FROM tournaments.pending_transitions WHERE false;
SELECT id, cycle_id, user_id, reason, amount, granted_at FROM tournaments.xp_grants WHERE false;
SELECT id, user_id, current_streak, max_streak, last_cycle_id, updated_at FROM tournaments.streaks WHERE false;
