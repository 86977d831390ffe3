-- Payload contracts, generated from the SDK's payload types (genji_sdk.registry REGISTRY), and
-- the tracing headers a job may carry (genji_sdk.envelope).
-- Do not edit: change the payload types or the allow-list, then run `just payload-contracts`.
-- Each run replaces every contract; sql/payload_check.sql reads them on every enqueue.
-- One JSON object per node (fields of payload_contract_node); a constraint applies only to
-- values of its own JSON type, and a field left out is NULL, which means no constraint.

-- Only these tracing headers are stored with a job: lower-cased keys, values cut to
-- 512 characters (genji_sdk.envelope TRACE_ALLOWLIST, TRACE_VALUE_MAX_CHARS).
-- PL/pgSQL keeps its query's plan for the session: a SQL function with a SET clause is not
-- inlined, and it would be parsed and planned again at every call.
CREATE OR REPLACE FUNCTION queue_trace_filter(p_trace jsonb) RETURNS jsonb
LANGUAGE plpgsql
IMMUTABLE
SET search_path = public, pg_temp
AS $$
BEGIN
    RETURN (SELECT coalesce(jsonb_object_agg(lower(e.key), left(e.value, 512)), '{}')
            FROM jsonb_each_text(coalesce(p_trace, '{}')) e
            WHERE lower(e.key) IN ('baggage', 'sentry-trace', 'traceparent', 'tracestate', 'x-request-id'));
END
$$;

-- Every enqueue reads its contract's row: rows up to a page stay uncompressed in the table, so
-- that read decompresses nothing (the default compresses a row over about 2 kB).
ALTER TABLE payload_contracts SET (toast_tuple_target = 8160);

DELETE FROM payload_contracts;

-- api.completion.autoverification.failed, version 1: FailedAutoverifyEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.completion.autoverification.failed', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "completion_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "submitted_code", "required": true, "json_types": ["string"], "min_length": 4, "max_length": 6, "pattern": "^[A-Z0-9]+$", "pg_pattern": "^[A-Z0-9]+(?=\\n?$)"},
    {"node": 3, "parent": 0, "role": "field", "field_name": "submitted_time", "required": true, "json_types": ["number"]},
    {"node": 4, "parent": 0, "role": "field", "field_name": "submitted_user_names", "required": true, "json_types": ["array"]},
    {"node": 5, "parent": 4, "role": "item", "json_types": ["string"]},
    {"node": 6, "parent": 0, "role": "field", "field_name": "user_id", "required": true, "json_types": ["integer"]},
    {"node": 7, "parent": 0, "role": "field", "field_name": "extracted", "required": true, "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 8, "parent": 7, "role": "field", "field_name": "name", "required": true, "json_types": ["null", "string"]},
    {"node": 9, "parent": 7, "role": "field", "field_name": "time", "required": true, "json_types": ["null", "number"]},
    {"node": 10, "parent": 7, "role": "field", "field_name": "code", "required": true, "json_types": ["null", "string"]},
    {"node": 11, "parent": 7, "role": "field", "field_name": "sources", "json_types": ["object"], "object_kind": "map"},
    {"node": 12, "parent": 7, "role": "field", "field_name": "texts", "json_types": ["object"], "object_kind": "map"},
    {"node": 13, "parent": 0, "role": "field", "field_name": "code_match", "required": true, "json_types": ["boolean"]},
    {"node": 14, "parent": 0, "role": "field", "field_name": "time_match", "required": true, "json_types": ["boolean"]},
    {"node": 15, "parent": 0, "role": "field", "field_name": "user_match", "required": true, "json_types": ["boolean"]},
    {"node": 16, "parent": 0, "role": "field", "field_name": "screenshot", "required": true, "json_types": ["string"]}
]'));

-- api.completion.submission, version 1: CompletionCreatedEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.completion.submission', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "completion_id", "required": true, "json_types": ["integer"]}
]'));

-- api.completion.upvote, version 1: UpvoteUpdateEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.completion.upvote', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "user_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "message_id", "required": true, "json_types": ["integer"]},
    {"node": 3, "parent": 0, "role": "field", "field_name": "milestone", "required": true, "json_types": ["integer"]}
]'));

-- api.completion.verification, version 1: VerificationChangedEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.completion.verification', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "completion_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "transition_id", "required": true, "json_types": ["integer"]},
    {"node": 3, "parent": 0, "role": "field", "field_name": "verified", "required": true, "json_types": ["boolean"]},
    {"node": 4, "parent": 0, "role": "field", "field_name": "verified_by", "required": true, "json_types": ["integer"]},
    {"node": 5, "parent": 0, "role": "field", "field_name": "reason", "json_types": ["null", "string"]}
]'));

-- api.completion.verification.delete, version 1: VerificationMessageDeleteEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.completion.verification.delete', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "verification_id", "required": true, "json_types": ["integer"]}
]'));

-- api.map_edit.created, version 1: MapEditCreatedEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.map_edit.created', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "edit_request_id", "required": true, "json_types": ["integer"]}
]'));

-- api.map_edit.resolved, version 1: MapEditResolvedEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.map_edit.resolved', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "edit_request_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "accepted", "required": true, "json_types": ["boolean"]},
    {"node": 3, "parent": 0, "role": "field", "field_name": "resolved_by", "required": true, "json_types": ["integer"]},
    {"node": 4, "parent": 0, "role": "field", "field_name": "rejection_reason", "json_types": ["null", "string"]}
]'));

-- api.newsfeed.create, version 1: NewsfeedDispatchEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.newsfeed.create', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "newsfeed_id", "required": true, "json_types": ["integer"]}
]'));

-- api.notification.delivery, version 1: NotificationDeliveryEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.notification.delivery', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "event_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "user_id", "required": true, "json_types": ["integer"]},
    {"node": 3, "parent": 0, "role": "field", "field_name": "event_type", "required": true, "json_types": ["string"], "enum_values": ["auto_verify_failed", "lootbox_earned", "map_edit_approved", "map_edit_rejected", "mastery_earned", "playtest_update", "prestige", "quest_complete", "quest_rival_mention", "quest_rotation", "rank_up", "record_edited", "record_removed", "skill_role_update", "verification_approved", "verification_rejected", "xp_gain"]},
    {"node": 4, "parent": 0, "role": "field", "field_name": "title", "required": true, "json_types": ["string"]},
    {"node": 5, "parent": 0, "role": "field", "field_name": "body", "required": true, "json_types": ["string"]},
    {"node": 6, "parent": 0, "role": "field", "field_name": "discord_message", "json_types": ["null", "string"]},
    {"node": 7, "parent": 0, "role": "field", "field_name": "metadata", "json_types": ["null", "object"], "object_kind": "map"},
    {"node": 8, "parent": 0, "role": "field", "field_name": "channels_to_deliver", "required": true, "json_types": ["array"]},
    {"node": 9, "parent": 8, "role": "item", "json_types": ["string"], "enum_values": ["discord_dm", "discord_ping", "web"]}
]'));

-- api.playtest.create, version 1: PlaytestCreatedEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.playtest.create', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "code", "required": true, "json_types": ["string"], "min_length": 4, "max_length": 6, "pattern": "^[A-Z0-9]+$", "pg_pattern": "^[A-Z0-9]+(?=\\n?$)"},
    {"node": 2, "parent": 0, "role": "field", "field_name": "playtest_id", "required": true, "json_types": ["integer"]}
]'));

-- api.playtest.vote.cast, version 1: PlaytestVoteCastEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.playtest.vote.cast', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "voter_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "difficulty_value", "required": true, "json_types": ["number"]},
    {"node": 3, "parent": 0, "role": "field", "field_name": "thread_id", "required": true, "json_types": ["integer"]}
]'));

-- api.playtest.vote.remove, version 1: PlaytestVoteRemovedEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.playtest.vote.remove', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "voter_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "thread_id", "required": true, "json_types": ["integer"]}
]'));

-- api.playtest.approve, version 1: PlaytestApprovedEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.playtest.approve', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "verifier_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "difficulty", "required": true, "json_types": ["string"], "enum_values": ["Easy", "Easy +", "Easy -", "Extreme", "Extreme +", "Extreme -", "Hard", "Hard +", "Hard -", "Hell", "Medium", "Medium +", "Medium -", "Very Hard", "Very Hard +", "Very Hard -"]},
    {"node": 3, "parent": 0, "role": "field", "field_name": "thread_id", "required": true, "json_types": ["integer"]},
    {"node": 4, "parent": 0, "role": "field", "field_name": "primary_creator_id", "required": true, "json_types": ["integer"]},
    {"node": 5, "parent": 0, "role": "field", "field_name": "code", "required": true, "json_types": ["string"], "min_length": 4, "max_length": 6, "pattern": "^[A-Z0-9]+$", "pg_pattern": "^[A-Z0-9]+(?=\\n?$)"}
]'));

-- api.playtest.force_accept, version 1: PlaytestForceAcceptedEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.playtest.force_accept', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "difficulty", "required": true, "json_types": ["string"], "enum_values": ["Easy", "Easy +", "Easy -", "Extreme", "Extreme +", "Extreme -", "Hard", "Hard +", "Hard -", "Hell", "Medium", "Medium +", "Medium -", "Very Hard", "Very Hard +", "Very Hard -"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "verifier_id", "required": true, "json_types": ["integer"]},
    {"node": 3, "parent": 0, "role": "field", "field_name": "thread_id", "required": true, "json_types": ["integer"]}
]'));

-- api.playtest.force_deny, version 1: PlaytestForceDeniedEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.playtest.force_deny', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "verifier_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "reason", "required": true, "json_types": ["string"]},
    {"node": 3, "parent": 0, "role": "field", "field_name": "thread_id", "required": true, "json_types": ["integer"]}
]'));

-- api.playtest.reset, version 1: PlaytestResetEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.playtest.reset', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "transition_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "verifier_id", "required": true, "json_types": ["integer"]},
    {"node": 3, "parent": 0, "role": "field", "field_name": "reason", "required": true, "json_types": ["string"]},
    {"node": 4, "parent": 0, "role": "field", "field_name": "remove_votes", "required": true, "json_types": ["boolean"]},
    {"node": 5, "parent": 0, "role": "field", "field_name": "remove_completions", "required": true, "json_types": ["boolean"]},
    {"node": 6, "parent": 0, "role": "field", "field_name": "thread_id", "required": true, "json_types": ["integer"]}
]'));

-- api.tournament.completion.created, version 1: TournamentCompletionCreatedEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.tournament.completion.created', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "completion_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "cycle_id", "required": true, "json_types": ["integer"]},
    {"node": 3, "parent": 0, "role": "field", "field_name": "user_id", "required": true, "json_types": ["integer"]},
    {"node": 4, "parent": 0, "role": "field", "field_name": "time", "required": true, "json_types": ["number"]},
    {"node": 5, "parent": 0, "role": "field", "field_name": "video", "json_types": ["null", "string"]},
    {"node": 6, "parent": 0, "role": "field", "field_name": "screenshot", "required": true, "json_types": ["string"]}
]'));

-- api.tournament.verification.changed, version 1: TournamentVerificationChangedEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.tournament.verification.changed', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "tournament_completion_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "transition_id", "required": true, "json_types": ["integer"]},
    {"node": 3, "parent": 0, "role": "field", "field_name": "cycle_id", "required": true, "json_types": ["integer"]},
    {"node": 4, "parent": 0, "role": "field", "field_name": "user_id", "required": true, "json_types": ["integer"]},
    {"node": 5, "parent": 0, "role": "field", "field_name": "verified", "required": true, "json_types": ["boolean"]},
    {"node": 6, "parent": 0, "role": "field", "field_name": "time", "required": true, "json_types": ["number"]}
]'));

-- api.tournament.rollover, version 1: TournamentRolloverEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.tournament.rollover', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "edition_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "results", "json_types": ["array"]},
    {"node": 3, "parent": 2, "role": "item", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 4, "parent": 3, "role": "field", "field_name": "cycle_id", "required": true, "json_types": ["integer"]},
    {"node": 5, "parent": 3, "role": "field", "field_name": "category_id", "required": true, "json_types": ["integer"]},
    {"node": 6, "parent": 3, "role": "field", "field_name": "standings", "required": true, "json_types": ["array"]},
    {"node": 7, "parent": 6, "role": "item", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 8, "parent": 7, "role": "field", "field_name": "rank", "required": true, "json_types": ["integer"]},
    {"node": 9, "parent": 7, "role": "field", "field_name": "user_id", "required": true, "json_types": ["integer"]},
    {"node": 10, "parent": 7, "role": "field", "field_name": "name", "required": true, "json_types": ["string"]},
    {"node": 11, "parent": 7, "role": "field", "field_name": "time", "required": true, "json_types": ["number"]},
    {"node": 12, "parent": 7, "role": "field", "field_name": "verified", "required": true, "json_types": ["boolean"]},
    {"node": 13, "parent": 7, "role": "field", "field_name": "completion", "required": true, "json_types": ["boolean"]},
    {"node": 14, "parent": 3, "role": "field", "field_name": "winner_user_id", "json_types": ["null", "integer"]},
    {"node": 15, "parent": 0, "role": "field", "field_name": "started", "json_types": ["array"]},
    {"node": 16, "parent": 15, "role": "item", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 17, "parent": 16, "role": "field", "field_name": "cycle_id", "required": true, "json_types": ["integer"]},
    {"node": 18, "parent": 16, "role": "field", "field_name": "category_id", "required": true, "json_types": ["integer"]},
    {"node": 19, "parent": 16, "role": "field", "field_name": "map_id", "required": true, "json_types": ["integer"]},
    {"node": 20, "parent": 16, "role": "field", "field_name": "map_code", "required": true, "json_types": ["string"]},
    {"node": 21, "parent": 16, "role": "field", "field_name": "map_name", "required": true, "json_types": ["string"]},
    {"node": 22, "parent": 16, "role": "field", "field_name": "started_at", "required": true, "json_types": ["string"], "format": "date-time"},
    {"node": 23, "parent": 16, "role": "field", "field_name": "ends_at", "required": true, "json_types": ["string"], "format": "date-time"},
    {"node": 24, "parent": 0, "role": "field", "field_name": "results_pending", "json_types": ["boolean"]}
]'));

-- api.tournament.results, version 1: TournamentEditionResultsEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.tournament.results', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "edition_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "results", "json_types": ["array"]},
    {"node": 3, "parent": 2, "role": "item", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 4, "parent": 3, "role": "field", "field_name": "cycle_id", "required": true, "json_types": ["integer"]},
    {"node": 5, "parent": 3, "role": "field", "field_name": "category_id", "required": true, "json_types": ["integer"]},
    {"node": 6, "parent": 3, "role": "field", "field_name": "standings", "required": true, "json_types": ["array"]},
    {"node": 7, "parent": 6, "role": "item", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 8, "parent": 7, "role": "field", "field_name": "rank", "required": true, "json_types": ["integer"]},
    {"node": 9, "parent": 7, "role": "field", "field_name": "user_id", "required": true, "json_types": ["integer"]},
    {"node": 10, "parent": 7, "role": "field", "field_name": "name", "required": true, "json_types": ["string"]},
    {"node": 11, "parent": 7, "role": "field", "field_name": "time", "required": true, "json_types": ["number"]},
    {"node": 12, "parent": 7, "role": "field", "field_name": "verified", "required": true, "json_types": ["boolean"]},
    {"node": 13, "parent": 7, "role": "field", "field_name": "completion", "required": true, "json_types": ["boolean"]},
    {"node": 14, "parent": 3, "role": "field", "field_name": "winner_user_id", "json_types": ["null", "integer"]}
]'));

-- api.xp.grant, version 1: XpGrantEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('api.xp.grant', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "grant_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "user_id", "required": true, "json_types": ["integer"]},
    {"node": 3, "parent": 0, "role": "field", "field_name": "amount", "required": true, "json_types": ["integer"]},
    {"node": 4, "parent": 0, "role": "field", "field_name": "type", "required": true, "json_types": ["string"], "enum_values": ["Completion", "Guide", "Map Submission", "Other", "Playtest", "Quest", "Record", "Tournament", "World Record"]},
    {"node": 5, "parent": 0, "role": "field", "field_name": "previous_amount", "required": true, "json_types": ["integer"]},
    {"node": 6, "parent": 0, "role": "field", "field_name": "new_amount", "required": true, "json_types": ["integer"]},
    {"node": 7, "parent": 0, "role": "field", "field_name": "reason", "json_types": ["null", "string"]}
]'));

-- completion.ocr.requested, version 1: OcrVerificationRequestedEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('completion.ocr.requested', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "completion_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "user_id", "required": true, "json_types": ["integer"]},
    {"node": 3, "parent": 0, "role": "field", "field_name": "code", "required": true, "json_types": ["string"], "min_length": 4, "max_length": 6, "pattern": "^[A-Z0-9]+$", "pg_pattern": "^[A-Z0-9]+(?=\\n?$)"},
    {"node": 4, "parent": 0, "role": "field", "field_name": "time", "required": true, "json_types": ["number"]},
    {"node": 5, "parent": 0, "role": "field", "field_name": "screenshot", "required": true, "json_types": ["string"]}
]'));

-- tournament.ocr.requested, version 1: TournamentOcrVerificationRequestedEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('tournament.ocr.requested', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "tournament_completion_id", "required": true, "json_types": ["integer"]},
    {"node": 2, "parent": 0, "role": "field", "field_name": "cycle_id", "required": true, "json_types": ["integer"]},
    {"node": 3, "parent": 0, "role": "field", "field_name": "user_id", "required": true, "json_types": ["integer"]},
    {"node": 4, "parent": 0, "role": "field", "field_name": "code", "required": true, "json_types": ["string"], "min_length": 4, "max_length": 6, "pattern": "^[A-Z0-9]+$", "pg_pattern": "^[A-Z0-9]+(?=\\n?$)"},
    {"node": 5, "parent": 0, "role": "field", "field_name": "time", "required": true, "json_types": ["number"]},
    {"node": 6, "parent": 0, "role": "field", "field_name": "screenshot", "required": true, "json_types": ["string"]}
]'));

-- map.linked.newsfeed.requested, version 1: LinkedMapNewsfeedRequestedEvent
INSERT INTO payload_contracts (event_name, payload_version, nodes)
VALUES ('map.linked.newsfeed.requested', 1, payload_nodes(
'[
    {"node": 0, "role": "payload", "json_types": ["object"], "object_kind": "struct", "extra_fields": "ignore"},
    {"node": 1, "parent": 0, "role": "field", "field_name": "official_code", "required": true, "json_types": ["string"], "min_length": 4, "max_length": 6, "pattern": "^[A-Z0-9]+$", "pg_pattern": "^[A-Z0-9]+(?=\\n?$)"},
    {"node": 2, "parent": 0, "role": "field", "field_name": "unofficial_code", "required": true, "json_types": ["string"], "min_length": 4, "max_length": 6, "pattern": "^[A-Z0-9]+$", "pg_pattern": "^[A-Z0-9]+(?=\\n?$)"},
    {"node": 3, "parent": 0, "role": "field", "field_name": "official_map_id", "required": true, "json_types": ["integer"]}
]'));
