-- Map mastery: the level each user holds per map name, recomputed when one of the user's
-- completions is verified. Comparing with the stored level tells a new level from a kept one.

CREATE TABLE maps.mastery (
    user_id    bigint NOT NULL REFERENCES core.users (id),
    map_name   text NOT NULL,
    level      text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, map_name)
);
