-- Domain schemas for users and API authentication, and the shared updated_at trigger function.
-- The queue worker login gets nothing here: new schemas and tables grant PUBLIC nothing.

CREATE SCHEMA core;
CREATE SCHEMA users;
CREATE SCHEMA auth;

-- Shared by every domain table with an updated_at column (BEFORE UPDATE, FOR EACH ROW).
CREATE FUNCTION core.set_updated_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.updated_at := now();
    RETURN NEW;
END
$$;

-- A Discord user; the id is their Discord snowflake.
CREATE TABLE core.users (
    id          bigint PRIMARY KEY CHECK (id > 0),
    nickname    text NOT NULL,
    global_name text,
    is_mod      boolean NOT NULL DEFAULT false,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Overwatch names of a user, used to match names read from screenshots.
CREATE TABLE users.overwatch_usernames (
    id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    bigint NOT NULL REFERENCES core.users (id) ON DELETE CASCADE,
    username   text NOT NULL CHECK (username <> ''),
    is_primary boolean NOT NULL DEFAULT false,
    CONSTRAINT overwatch_usernames_user_id_username_unique UNIQUE (user_id, username)
);
CREATE UNIQUE INDEX overwatch_usernames_one_primary_per_user
    ON users.overwatch_usernames (user_id) WHERE is_primary;

-- Any flag on a user makes their submissions skip automatic verification. The foreign key of
-- completion_id is added with core.completions (domain_completions).
CREATE TABLE users.suspicious_flags (
    id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id       bigint NOT NULL REFERENCES core.users (id),
    completion_id integer,
    context       text,
    flag_type     text NOT NULL,
    flagged_by    bigint,
    inserted_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX suspicious_flags_user_id ON users.suspicious_flags (user_id);

-- A client of the API (the bot, a local developer).
CREATE TABLE auth.users (
    id       integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username text NOT NULL UNIQUE CHECK (username <> ''),
    info     text
);

-- API keys are never stored: only the sha256 of the key, and its first 8 characters for display.
CREATE TABLE auth.api_tokens (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id      integer NOT NULL REFERENCES auth.users (id),
    key_hash     bytea NOT NULL UNIQUE CHECK (octet_length(key_hash) = 32),
    key_prefix   text NOT NULL CHECK (char_length(key_prefix) = 8),
    is_superuser boolean NOT NULL DEFAULT false,
    scopes       text[] NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL DEFAULT now(),
    revoked_at   timestamptz,
    CHECK (revoked_at IS NULL OR revoked_at >= created_at)
);
CREATE INDEX api_tokens_user_id ON auth.api_tokens (user_id);
