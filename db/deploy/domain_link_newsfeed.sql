-- The newsfeed entry that announced a link, once there is one: the announcing continuation
-- checks it under the operation's row lock, so a rerun announces nothing twice.

ALTER TABLE maps.link_operations
    ADD COLUMN newsfeed_id integer REFERENCES public.newsfeed (id);
