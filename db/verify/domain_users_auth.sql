SELECT 'core.set_updated_at()'::regprocedure;
SELECT id, nickname, global_name, is_mod, created_at FROM core.users WHERE false;
SELECT id, user_id, username, is_primary FROM users.overwatch_usernames WHERE false;
SELECT 'users.overwatch_usernames_one_primary_per_user'::regclass;
SELECT id, user_id, completion_id, context, flag_type, flagged_by, inserted_at FROM users.suspicious_flags WHERE false;
SELECT id, username, info FROM auth.users WHERE false;
SELECT id, user_id, key_hash, key_prefix, is_superuser, scopes, created_at, revoked_at FROM auth.api_tokens WHERE false;
