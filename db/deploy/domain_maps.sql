-- Maps, their creators, guides, links, edit requests and playtests.

CREATE SCHEMA maps;
CREATE SCHEMA playtests;

-- The difficulty label of a raw difficulty: 16 equal bands of 0.625 over 0..10, in order
--   Easy -      [0.000, 0.625)   Easy        [0.625, 1.250)   Easy +      [1.250, 1.875)
--   Medium -    [1.875, 2.500)   Medium      [2.500, 3.125)   Medium +    [3.125, 3.750)
--   Hard -      [3.750, 4.375)   Hard        [4.375, 5.000)   Hard +      [5.000, 5.625)
--   Very Hard - [5.625, 6.250)   Very Hard   [6.250, 6.875)   Very Hard + [6.875, 7.500)
--   Extreme -   [7.500, 8.125)   Extreme     [8.125, 8.750)   Extreme +   [8.750, 9.375)
--   Hell        [9.375, 10.000]
-- NULL stays NULL.
CREATE FUNCTION core.difficulty_label(raw numeric) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT (ARRAY[
        'Easy -', 'Easy', 'Easy +',
        'Medium -', 'Medium', 'Medium +',
        'Hard -', 'Hard', 'Hard +',
        'Very Hard -', 'Very Hard', 'Very Hard +',
        'Extreme -', 'Extreme', 'Extreme +',
        'Hell'
    ])[least(floor(raw / 0.625)::integer, 15) + 1]
$$;

CREATE TABLE core.maps (
    id             integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    code           text NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9]{4,6}$'),
    map_name       text NOT NULL,
    category       text NOT NULL DEFAULT 'Classic',
    checkpoints    integer NOT NULL DEFAULT 1 CHECK (checkpoints > 0),
    official       boolean NOT NULL DEFAULT true,
    playtesting    text NOT NULL DEFAULT 'In Progress'
        CHECK (playtesting IN ('Approved', 'In Progress', 'Rejected')),
    hidden         boolean NOT NULL DEFAULT true,
    archived       boolean NOT NULL DEFAULT false,
    raw_difficulty numeric(4, 2) CHECK (raw_difficulty BETWEEN 0 AND 10),
    difficulty     text,
    -- Deferred, so two maps may be inserted pointing at each other in one transaction. A code
    -- change follows into the counterpart; deleting a map clears its counterpart's link.
    linked_code    text REFERENCES core.maps (code)
        ON UPDATE CASCADE ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX maps_linked_code ON core.maps (linked_code) WHERE linked_code IS NOT NULL;

-- difficulty is always derived: a direct write to it is overwritten.
CREATE FUNCTION core.maps_set_difficulty() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.difficulty := core.difficulty_label(NEW.raw_difficulty);
    RETURN NEW;
END
$$;
CREATE TRIGGER maps_set_difficulty BEFORE INSERT OR UPDATE ON core.maps
    FOR EACH ROW EXECUTE FUNCTION core.maps_set_difficulty();
CREATE TRIGGER maps_set_updated_at BEFORE UPDATE ON core.maps
    FOR EACH ROW EXECUTE FUNCTION core.set_updated_at();

-- Keeps linked_code symmetric: A -> B makes B -> A; clearing A's link clears B's; a map cannot
-- link to itself or to a map already linked elsewhere. The counterpart's row is locked before
-- it is read, so two concurrent links to the same map cannot both succeed. Recursion ends by
-- comparing values: the counterpart's own invocation finds nothing left to change.
CREATE FUNCTION core.maps_keep_links_symmetric() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    partner_link text;
    partner_found boolean;
    pointer text;
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.linked_code IS NOT DISTINCT FROM NEW.linked_code
       AND OLD.code = NEW.code THEN
        RETURN NULL;
    END IF;
    IF NEW.linked_code = NEW.code THEN
        RAISE EXCEPTION 'map % cannot be linked to itself', NEW.code
            USING ERRCODE = 'check_violation', CONSTRAINT = 'maps_linked_code_symmetric';
    END IF;

    -- The previous counterpart no longer points back.
    IF TG_OP = 'UPDATE' AND OLD.linked_code IS NOT NULL
       AND OLD.linked_code IS DISTINCT FROM NEW.linked_code THEN
        UPDATE core.maps SET linked_code = NULL
        WHERE code = OLD.linked_code AND linked_code IN (OLD.code, NEW.code);
    END IF;

    IF NEW.linked_code IS NOT NULL THEN
        SELECT linked_code, true INTO partner_link, partner_found
        FROM core.maps WHERE code = NEW.linked_code FOR UPDATE;
        IF partner_found AND partner_link IS NOT NULL AND partner_link <> NEW.code THEN
            RAISE EXCEPTION 'map % cannot be linked to %: % is already linked to %',
                NEW.code, NEW.linked_code, NEW.linked_code, partner_link
                USING ERRCODE = 'check_violation', CONSTRAINT = 'maps_linked_code_symmetric';
        END IF;
        IF partner_found AND partner_link IS NULL THEN
            UPDATE core.maps SET linked_code = NEW.code WHERE code = NEW.linked_code;
        END IF;
        -- A missing counterpart is left to the deferred foreign key.
    END IF;

    -- A map inserted after one that already points at it (the deferred key allows that order).
    SELECT code INTO pointer FROM core.maps
    WHERE linked_code = NEW.code AND code IS DISTINCT FROM NEW.linked_code
    LIMIT 1;
    IF pointer IS NOT NULL THEN
        IF NEW.linked_code IS NOT NULL THEN
            RAISE EXCEPTION 'map % cannot be linked to %: % is already linked to %',
                NEW.code, NEW.linked_code, pointer, NEW.code
                USING ERRCODE = 'check_violation', CONSTRAINT = 'maps_linked_code_symmetric';
        END IF;
        UPDATE core.maps SET linked_code = pointer WHERE id = NEW.id;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER maps_keep_links_symmetric AFTER INSERT OR UPDATE ON core.maps
    FOR EACH ROW EXECUTE FUNCTION core.maps_keep_links_symmetric();

CREATE TABLE maps.creators (
    map_id     integer NOT NULL REFERENCES core.maps (id) ON DELETE CASCADE,
    user_id    bigint NOT NULL REFERENCES core.users (id),
    is_primary boolean NOT NULL DEFAULT false,
    PRIMARY KEY (map_id, user_id)
);
CREATE UNIQUE INDEX creators_one_primary_per_map ON maps.creators (map_id) WHERE is_primary;
CREATE INDEX creators_user_id ON maps.creators (user_id);

CREATE TABLE maps.guides (
    id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    map_id      integer NOT NULL REFERENCES core.maps (id) ON DELETE CASCADE,
    user_id     bigint NOT NULL REFERENCES core.users (id),
    url         text NOT NULL CHECK (url ~ '^https?://'),
    inserted_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT guides_user_id_map_id_unique UNIQUE (user_id, map_id)
);
CREATE INDEX guides_map_id ON maps.guides (map_id);

-- One row per linking of an official and an unofficial map: its id identifies that linking.
CREATE TABLE maps.link_operations (
    id                integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    official_map_id   integer NOT NULL REFERENCES core.maps (id),
    unofficial_map_id integer NOT NULL REFERENCES core.maps (id),
    linked_at         timestamptz NOT NULL DEFAULT now(),
    CHECK (official_map_id <> unofficial_map_id)
);

-- accepted: NULL pending, true accepted, false rejected.
CREATE TABLE maps.edit_requests (
    id               integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    map_id           integer NOT NULL REFERENCES core.maps (id),
    code             text NOT NULL,
    proposed_changes jsonb NOT NULL CHECK (jsonb_typeof(proposed_changes) = 'object'),
    reason           text NOT NULL,
    created_by       bigint NOT NULL REFERENCES core.users (id),
    created_at       timestamptz NOT NULL DEFAULT now(),
    message_id       bigint,
    accepted         boolean,
    resolved_by      bigint REFERENCES core.users (id),
    resolved_at      timestamptz,
    rejection_reason text,
    CHECK ((accepted IS NULL) = (resolved_at IS NULL))
);
CREATE UNIQUE INDEX edit_requests_one_pending_per_map ON maps.edit_requests (map_id)
    WHERE accepted IS NULL;

-- thread_id is the forum thread (its starter message id), set once the bot has made it.
CREATE TABLE playtests.meta (
    id                 integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    map_id             integer NOT NULL REFERENCES core.maps (id),
    thread_id          bigint UNIQUE,
    verification_id    bigint,
    initial_difficulty numeric(4, 2) CHECK (initial_difficulty BETWEEN 0 AND 10),
    completed          boolean NOT NULL DEFAULT false,
    reset_generation   integer NOT NULL DEFAULT 0 CHECK (reset_generation >= 0),
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX meta_one_open_playtest_per_map ON playtests.meta (map_id) WHERE NOT completed;
CREATE TRIGGER meta_set_updated_at BEFORE UPDATE ON playtests.meta
    FOR EACH ROW EXECUTE FUNCTION core.set_updated_at();

-- The eligibility trigger (a verified completion of the map) needs core.completions, so it
-- comes with domain_completions.
CREATE TABLE playtests.votes (
    id                 integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id            bigint NOT NULL REFERENCES core.users (id),
    map_id             integer NOT NULL REFERENCES core.maps (id),
    playtest_thread_id bigint NOT NULL REFERENCES playtests.meta (thread_id),
    difficulty         numeric(4, 2) NOT NULL CHECK (difficulty BETWEEN 0 AND 10),
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT votes_user_id_map_id_playtest_thread_id_unique
        UNIQUE (user_id, map_id, playtest_thread_id)
);
CREATE INDEX votes_playtest_thread_id ON playtests.votes (playtest_thread_id);
CREATE TRIGGER votes_set_updated_at BEFORE UPDATE ON playtests.votes
    FOR EACH ROW EXECUTE FUNCTION core.set_updated_at();

-- One row per playtest transition that actually happened; its id identifies the event.
CREATE TABLE playtests.transitions (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    playtest_id integer NOT NULL REFERENCES playtests.meta (id),
    kind        text NOT NULL CHECK (kind IN (
        'approve', 'force_accept', 'force_deny', 'reset', 'vote_cast', 'vote_remove'
    )),
    actor_id    bigint,
    details     jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(details) = 'object'),
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transitions_playtest_id ON playtests.transitions (playtest_id);
