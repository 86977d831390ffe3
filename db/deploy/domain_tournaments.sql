-- Weekly tournaments: editions, one cycle per category, submissions, verdicts, the transition
-- outbox, XP grants and streaks.

CREATE SCHEMA tournaments;

CREATE TABLE tournaments.config (
    id                 integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    cadence            text NOT NULL DEFAULT 'weekly' CHECK (cadence IN ('weekly', 'biweekly')),
    anchor_weekday     integer NOT NULL DEFAULT 0 CHECK (anchor_weekday BETWEEN 0 AND 6),
    anchor_time        time NOT NULL DEFAULT '18:00',
    anchor_tz          text NOT NULL DEFAULT 'UTC',
    transitions_paused boolean NOT NULL DEFAULT false,
    updated_at         timestamptz NOT NULL DEFAULT now()
);
INSERT INTO tournaments.config (id) VALUES (1);
CREATE TRIGGER config_set_updated_at BEFORE UPDATE ON tournaments.config
    FOR EACH ROW EXECUTE FUNCTION core.set_updated_at();

-- placement_xp: [{"place": n, "xp": n}, ...]; streak_xp: [{"threshold": n, "xp": n}, ...].
CREATE TABLE tournaments.categories (
    id               integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name             text NOT NULL UNIQUE,
    difficulties     text[] NOT NULL DEFAULT '{}',
    participation_xp integer NOT NULL DEFAULT 0 CHECK (participation_xp >= 0),
    placement_xp     jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(placement_xp) = 'array'),
    streak_xp        jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(streak_xp) = 'array'),
    champion_role_id bigint,
    is_active        boolean NOT NULL DEFAULT true,
    created_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tournaments.editions (
    id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    started_at      timestamptz NOT NULL,
    ends_at         timestamptz NOT NULL,
    status          text NOT NULL DEFAULT 'active'
        CHECK (status IN ('active', 'awaiting_results', 'completed')),
    start_announced boolean NOT NULL DEFAULT false,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CHECK (ends_at > started_at)
);

CREATE TABLE tournaments.cycles (
    id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    edition_id  integer NOT NULL REFERENCES tournaments.editions (id),
    category_id integer NOT NULL REFERENCES tournaments.categories (id),
    map_id      integer NOT NULL REFERENCES core.maps (id),
    status      text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'active', 'finalizing', 'completed', 'replaced')),
    started_at  timestamptz,
    ended_at    timestamptz,
    replaced_by integer REFERENCES tournaments.cycles (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    CHECK (replaced_by IS NULL OR replaced_by <> id)
);
CREATE UNIQUE INDEX cycles_one_active_per_edition_category
    ON tournaments.cycles (edition_id, category_id) WHERE status = 'active';

CREATE TABLE tournaments.completions (
    id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    cycle_id    integer NOT NULL REFERENCES tournaments.cycles (id),
    user_id     bigint NOT NULL REFERENCES core.users (id),
    map_id      integer NOT NULL REFERENCES core.maps (id),
    time        numeric(10, 2) NOT NULL CHECK (time > 0),
    screenshot  text NOT NULL,
    video       text,
    inserted_at timestamptz NOT NULL DEFAULT now(),
    status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'rejected')),
    verified    boolean GENERATED ALWAYS AS (status = 'verified') STORED,
    completion  boolean GENERATED ALWAYS AS (video IS NOT NULL) STORED,
    CONSTRAINT completions_cycle_id_user_id_inserted_at_unique UNIQUE (cycle_id, user_id, inserted_at)
);
CREATE INDEX completions_cycle_id_user_id ON tournaments.completions (cycle_id, user_id);

-- Verified is terminal: once verified, a submission stays verified.
CREATE FUNCTION tournaments.completions_verified_is_terminal() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status = 'verified' AND NEW.status <> 'verified' THEN
        RAISE EXCEPTION 'tournament completion % is verified: its status cannot become %',
            OLD.id, NEW.status
            USING ERRCODE = 'check_violation',
                  CONSTRAINT = 'completions_verified_is_terminal';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER completions_verified_is_terminal BEFORE UPDATE OF status ON tournaments.completions
    FOR EACH ROW EXECUTE FUNCTION tournaments.completions_verified_is_terminal();

ALTER TABLE core.completions ADD CONSTRAINT completions_tournament_completion_id_fkey
    FOREIGN KEY (tournament_completion_id) REFERENCES tournaments.completions (id);

-- One row per verdict actually given.
CREATE TABLE tournaments.verdicts (
    id                       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tournament_completion_id integer NOT NULL REFERENCES tournaments.completions (id),
    verified                 boolean NOT NULL,
    verified_by              bigint,
    created_at               timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX verdicts_tournament_completion_id ON tournaments.verdicts (tournament_completion_id);

CREATE TABLE tournaments.pending_transitions (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    cycle_id   integer,
    edition_id integer NOT NULL REFERENCES tournaments.editions (id),
    event_type text NOT NULL CHECK (event_type IN (
        'cycle_started', 'cycle_completed', 'edition_rollover', 'edition_results'
    )),
    payload    jsonb NOT NULL,
    published  boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pending_transitions_unpublished ON tournaments.pending_transitions (created_at)
    WHERE NOT published;

-- The tournament XP ledger: at most one grant per (cycle, user, reason).
CREATE TABLE tournaments.xp_grants (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    cycle_id   integer NOT NULL REFERENCES tournaments.cycles (id),
    user_id    bigint NOT NULL REFERENCES core.users (id),
    reason     text NOT NULL CHECK (reason IN ('participation', 'placement', 'streak')),
    amount     integer NOT NULL,
    granted_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT xp_grants_cycle_id_user_id_reason_unique UNIQUE (cycle_id, user_id, reason)
);

CREATE TABLE tournaments.streaks (
    id             integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id        bigint NOT NULL UNIQUE REFERENCES core.users (id),
    current_streak integer NOT NULL DEFAULT 0 CHECK (current_streak >= 0),
    max_streak     integer NOT NULL DEFAULT 0 CHECK (max_streak >= 0),
    last_cycle_id  integer,
    updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER streaks_set_updated_at BEFORE UPDATE ON tournaments.streaks
    FOR EACH ROW EXECUTE FUNCTION core.set_updated_at();
