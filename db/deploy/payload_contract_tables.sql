-- Payload contracts enforced at enqueue. The SDK's msgspec payload types are their source:
-- sql/payload_contracts.sql is generated from them (`just payload-contracts`) and fills
-- payload_contracts; sql/payload_check.sql applies them in enqueue_job. The versions listed
-- there are the only ones enqueue_job accepts, exactly the ones the worker decodes.

-- One position a value can take in a payload: the payload object (node 0), a declared field
-- of an object, the items of an array or the values of a map. A constraint applies only to
-- values of its JSON type; NULL means no constraint, and NULL json_types accepts any value.
CREATE TYPE payload_contract_node AS (
    node              integer,
    parent            integer,
    role              text,     -- payload, field, item or value
    field_name        text,
    required          boolean,
    json_types        text[],   -- null, boolean, integer, number, string, array, object
    enum_values       text[],
    min_length        integer,
    max_length        integer,
    pattern           text,     -- as declared in the SDK (Python syntax), for messages
    pg_pattern        text,     -- the same rule as a PostgreSQL regular expression
    format            text,     -- date-time
    minimum           numeric,
    exclusive_minimum numeric,
    maximum           numeric,
    exclusive_maximum numeric,
    multiple_of       numeric,
    min_items         integer,  -- array items or map entries
    max_items         integer,
    object_kind       text,     -- struct (declared fields) or map
    extra_fields      text      -- struct fields not declared: ignore or forbid
);

-- A contract is one row, so enqueue_job reads it with a single primary-key lookup.
CREATE TABLE payload_contracts (
    event_name      text    NOT NULL REFERENCES queue_event_types (event_name),
    payload_version integer NOT NULL CHECK (payload_version > 0),
    nodes           payload_contract_node[] NOT NULL,
    PRIMARY KEY (event_name, payload_version)
);
