-- The newsfeed and user notifications.

CREATE SCHEMA notifications;

CREATE TABLE public.newsfeed (
    id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    timestamp  timestamptz NOT NULL DEFAULT now(),
    payload    jsonb NOT NULL CHECK (
        jsonb_typeof(payload) = 'object'
        AND payload ->> 'type' IN (
            'record', 'new_map', 'archive', 'unarchive', 'bulk_archive', 'bulk_unarchive',
            'guide', 'legacy_record', 'map_edit', 'role', 'announcement', 'linked_map',
            'unlinked_map'
        )
    ),
    event_type text GENERATED ALWAYS AS (payload ->> 'type') STORED
);
CREATE INDEX newsfeed_event_type ON public.newsfeed (event_type);
CREATE INDEX newsfeed_id_desc ON public.newsfeed (id DESC);

CREATE TABLE notifications.events (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id      bigint NOT NULL REFERENCES core.users (id),
    event_type   text NOT NULL CHECK (event_type IN (
        'verification_approved', 'verification_rejected', 'record_removed', 'record_edited',
        'auto_verify_failed', 'skill_role_update', 'xp_gain', 'rank_up', 'prestige',
        'mastery_earned', 'lootbox_earned', 'playtest_update', 'map_edit_approved',
        'map_edit_rejected', 'quest_complete', 'quest_rotation', 'quest_rival_mention'
    )),
    title        text NOT NULL,
    body         text NOT NULL,
    metadata     jsonb,
    created_at   timestamptz NOT NULL DEFAULT now(),
    read_at      timestamptz,
    dismissed_at timestamptz
);
CREATE INDEX events_user_id_unread ON notifications.events (user_id, created_at DESC)
    WHERE read_at IS NULL AND dismissed_at IS NULL;
CREATE INDEX events_user_id_active ON notifications.events (user_id, created_at DESC)
    WHERE dismissed_at IS NULL;

-- An absent row means the SDK's default for that event type and channel.
CREATE TABLE notifications.preferences (
    user_id    bigint NOT NULL REFERENCES core.users (id),
    event_type text NOT NULL CHECK (event_type IN (
        'verification_approved', 'verification_rejected', 'record_removed', 'record_edited',
        'auto_verify_failed', 'skill_role_update', 'xp_gain', 'rank_up', 'prestige',
        'mastery_earned', 'lootbox_earned', 'playtest_update', 'map_edit_approved',
        'map_edit_rejected', 'quest_complete', 'quest_rotation', 'quest_rival_mention'
    )),
    channel    text NOT NULL CHECK (channel IN ('discord_dm', 'discord_ping', 'web')),
    enabled    boolean NOT NULL DEFAULT true,
    PRIMARY KEY (user_id, event_type, channel)
);

CREATE TABLE notifications.delivery_log (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id      bigint NOT NULL REFERENCES notifications.events (id) ON DELETE CASCADE,
    channel       text NOT NULL CHECK (channel IN ('discord_dm', 'discord_ping', 'web')),
    status        text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'skipped')),
    attempted_at  timestamptz,
    delivered_at  timestamptz,
    error_message text,
    CONSTRAINT delivery_log_event_id_channel_unique UNIQUE (event_id, channel)
);
