-- Which process owns an event ('bot' or 'api'). Row-level security uses it to keep the bot's
-- queue login to the bot's own jobs; SECURITY DEFINER because that login cannot read the
-- event table itself.
CREATE OR REPLACE FUNCTION queue_event_owner(p_event_name text) RETURNS text
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
    SELECT t.owner FROM queue_event_types t WHERE t.event_name = p_event_name;
$$;
