-- Completions and their verification, upvotes, and XP and keys.

CREATE SCHEMA completions;
CREATE SCHEMA lootbox;

-- State: verified -> verified; not verified with verified_by set -> rejected; else pending.
-- completion: a completion only, not eligible as a record. The foreign key of
-- tournament_completion_id is added with tournaments.completions (domain_tournaments).
CREATE TABLE core.completions (
    id                       integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    map_id                   integer NOT NULL REFERENCES core.maps (id),
    user_id                  bigint NOT NULL REFERENCES core.users (id),
    time                     numeric(10, 2) NOT NULL CHECK (time > 0),
    screenshot               text NOT NULL,
    video                    text,
    verified                 boolean NOT NULL DEFAULT false,
    verified_by              bigint REFERENCES core.users (id),
    reason                   text,
    completion               boolean NOT NULL DEFAULT false,
    verification_id          bigint,
    message_id               bigint UNIQUE,
    legacy                   boolean NOT NULL DEFAULT false,
    wr_xp_check              boolean NOT NULL DEFAULT false,
    tournament_completion_id integer,
    inserted_at              timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT completions_map_id_user_id_inserted_at_unique UNIQUE (map_id, user_id, inserted_at)
);
CREATE INDEX completions_user_id_map_id ON core.completions (user_id, map_id);
CREATE INDEX completions_pending ON core.completions (inserted_at)
    WHERE NOT verified AND verified_by IS NULL;

-- A new non-legacy run must be strictly faster than the user's best non-rejected non-legacy
-- run on the map. The user's row is locked first, so two concurrent submissions of one user
-- are checked one after the other (each statement of the function sees the other's commit).
CREATE FUNCTION core.completions_must_beat_personal_best() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    best numeric;
BEGIN
    IF NEW.legacy THEN
        RETURN NEW;
    END IF;
    PERFORM 1 FROM core.users WHERE id = NEW.user_id FOR NO KEY UPDATE;
    SELECT min(c.time) INTO best
    FROM core.completions c
    WHERE c.user_id = NEW.user_id AND c.map_id = NEW.map_id AND NOT c.legacy
      AND (c.verified OR c.verified_by IS NULL);
    IF best IS NOT NULL AND NEW.time >= best THEN
        RAISE EXCEPTION 'completion of % is not faster than the personal best %', NEW.time, best
            USING ERRCODE = 'check_violation',
                  CONSTRAINT = 'completions_must_beat_personal_best';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER completions_must_beat_personal_best BEFORE INSERT ON core.completions
    FOR EACH ROW EXECUTE FUNCTION core.completions_must_beat_personal_best();

ALTER TABLE users.suspicious_flags ADD CONSTRAINT suspicious_flags_completion_id_fkey
    FOREIGN KEY (completion_id) REFERENCES core.completions (id);

-- Only a player with a verified, non-legacy completion of the map may vote on its difficulty.
CREATE FUNCTION playtests.votes_require_verified_completion() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM core.completions c
        WHERE c.user_id = NEW.user_id AND c.map_id = NEW.map_id AND c.verified AND NOT c.legacy
    ) THEN
        RAISE EXCEPTION 'user % needs a verified completion of map % to vote', NEW.user_id, NEW.map_id
            USING ERRCODE = 'check_violation',
                  CONSTRAINT = 'votes_require_verified_completion';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER votes_require_verified_completion BEFORE INSERT OR UPDATE ON playtests.votes
    FOR EACH ROW EXECUTE FUNCTION playtests.votes_require_verified_completion();

-- One row per verdict actually given.
CREATE TABLE completions.verification_transitions (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    completion_id integer NOT NULL REFERENCES core.completions (id) ON DELETE CASCADE,
    verified      boolean NOT NULL,
    verified_by   bigint NOT NULL,
    reason        text,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX verification_transitions_completion_id
    ON completions.verification_transitions (completion_id);

CREATE TABLE completions.upvotes (
    id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     bigint NOT NULL REFERENCES core.users (id),
    message_id  bigint NOT NULL REFERENCES core.completions (message_id),
    inserted_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT upvotes_message_id_user_id_unique UNIQUE (message_id, user_id)
);

-- A running total per user.
CREATE TABLE lootbox.xp (
    user_id bigint PRIMARY KEY REFERENCES core.users (id),
    amount  integer NOT NULL DEFAULT 0 CHECK (amount >= 0)
);

CREATE TABLE lootbox.xp_multiplier (
    id    integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    value numeric(4, 2) NOT NULL DEFAULT 1 CHECK (value > 0)
);
INSERT INTO lootbox.xp_multiplier (id, value) VALUES (1, 1);

-- The ledger: one row per grant, identified by grant_key (e.g. 'guide:12',
-- 'tournament:3:99:participation'), so a grant is applied at most once.
CREATE TABLE lootbox.xp_grants (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    grant_key      text NOT NULL UNIQUE CHECK (grant_key <> ''),
    user_id        bigint NOT NULL REFERENCES core.users (id),
    type           text NOT NULL CHECK (type IN (
        'Map Submission', 'Playtest', 'Guide', 'Completion', 'Record', 'World Record',
        'Quest', 'Other', 'Tournament'
    )),
    base_amount    integer NOT NULL CHECK (base_amount >= 0),
    amount         integer NOT NULL CHECK (amount >= 0),
    previous_total integer NOT NULL CHECK (previous_total >= 0),
    new_total      integer NOT NULL,
    reason         text,
    granted_at     timestamptz NOT NULL DEFAULT now(),
    CHECK (new_total = previous_total + amount)
);
CREATE INDEX xp_grants_user_id ON lootbox.xp_grants (user_id);

CREATE TABLE lootbox.key_types (
    name text PRIMARY KEY
);
INSERT INTO lootbox.key_types (name) VALUES ('Classic');

CREATE TABLE lootbox.active_key (
    id       integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    key_type text NOT NULL REFERENCES lootbox.key_types (name)
);
INSERT INTO lootbox.active_key (id, key_type) VALUES (1, 'Classic');

-- Each key of a multi-key grant is its own row (item 1..n of grant_key), so applying a grant
-- twice inserts nothing new.
CREATE TABLE lootbox.user_keys (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id   bigint NOT NULL REFERENCES core.users (id),
    key_type  text NOT NULL REFERENCES lootbox.key_types (name),
    grant_key text NOT NULL,
    item      integer NOT NULL CHECK (item >= 1),
    earned_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT user_keys_grant_key_item_unique UNIQUE (grant_key, item)
);
CREATE INDEX user_keys_user_id ON lootbox.user_keys (user_id);

-- Rank names: main tier = (xp / 100 % 100) / 5, sub tier = xp / 100 % 5.
CREATE TABLE lootbox.main_tiers (
    threshold integer PRIMARY KEY CHECK (threshold BETWEEN 0 AND 19),
    name      text NOT NULL
);
INSERT INTO lootbox.main_tiers (threshold, name) VALUES
    (0, 'Newcomer'), (1, 'Initiate'), (2, 'Apprentice'), (3, 'Novice'), (4, 'Runner'),
    (5, 'Climber'), (6, 'Skilled'), (7, 'Adept'), (8, 'Veteran'), (9, 'Expert'),
    (10, 'Specialist'), (11, 'Elite'), (12, 'Master'), (13, 'Grandmaster'), (14, 'Champion'),
    (15, 'Hero'), (16, 'Legend'), (17, 'Mythic'), (18, 'Immortal'), (19, 'Ascendant');

CREATE TABLE lootbox.sub_tiers (
    threshold integer PRIMARY KEY CHECK (threshold BETWEEN 0 AND 4),
    name      text NOT NULL
);
INSERT INTO lootbox.sub_tiers (threshold, name) VALUES
    (0, 'I'), (1, 'II'), (2, 'III'), (3, 'IV'), (4, 'V');
