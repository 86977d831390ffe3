-- Returns the ids among the given claims that this owner no longer holds.
CREATE OR REPLACE FUNCTION queue_heartbeat(
    p_ids bigint[], p_managers uuid[], p_claimed_at timestamptz[]
) RETURNS SETOF bigint
LANGUAGE sql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
    WITH claims AS (
        SELECT c.id, c.manager, c.claimed_at
        FROM unnest(p_ids, p_managers, p_claimed_at) AS c(id, manager, claimed_at)
    ), beaten AS (
        UPDATE pgqueuer q SET heartbeat = now()
        FROM claims c
        WHERE q.id = c.id AND q.queue_manager_id = c.manager AND q.updated = c.claimed_at
          AND q.status = 'picked' AND queue_may_act_for(c.manager)
        RETURNING q.id, q.queue_manager_id, q.updated
    )
    SELECT c.id FROM claims c
    WHERE NOT EXISTS (SELECT 1 FROM beaten b
                      WHERE b.id = c.id AND b.queue_manager_id = c.manager AND b.updated = c.claimed_at);
$$;
