-- Payload contracts applied at enqueue. payload_contracts holds one row per event and
-- supported version whose nodes are generated from the SDK's msgspec payload types into
-- sql/payload_contracts.sql. These functions apply them with the worker's decoding rules, so a
-- payload passes exactly when the worker can decode it; enqueue_job raises GJ003 otherwise.

-- The largest payload enqueue_job accepts, in bytes of its JSON text as jsonb renders it (the
-- form the worker reads inside the envelope). The only place the limit is defined.
CREATE OR REPLACE FUNCTION payload_max_bytes() RETURNS integer
LANGUAGE sql
IMMUTABLE PARALLEL SAFE
SET search_path = public, pg_temp
RETURN 262144;

-- A float field overflows to infinity at this magnitude (2^1024 - 2^970, halfway between the
-- largest double and 2^1024), which msgspec refuses as "Number out of range".
CREATE OR REPLACE FUNCTION payload_float_overflow() RETURNS numeric
LANGUAGE sql
IMMUTABLE PARALLEL SAFE
SET search_path = public, pg_temp
RETURN 2::numeric ^ 1024 - 2::numeric ^ 970;

-- The version enqueue_job uses when the caller gives none: the newest the contracts list.
CREATE OR REPLACE FUNCTION payload_current_version(p_event_name text) RETURNS integer
LANGUAGE sql
STABLE
SET search_path = public, pg_temp
AS $$
    SELECT max(c.payload_version) FROM payload_contracts c WHERE c.event_name = p_event_name;
$$;

-- The nodes of a contract from their JSON form, one object per node with the fields of
-- payload_contract_node (absent means NULL; for required, false), in node order. A key that is
-- not a field, or a value of the wrong type, is an error rather than a silently missing
-- constraint.
CREATE OR REPLACE FUNCTION payload_nodes(p_nodes jsonb) RETURNS payload_contract_node[]
LANGUAGE plpgsql
IMMUTABLE
SET search_path = public, pg_temp
AS $$
DECLARE
    v_nodes payload_contract_node[] := '{}';
    v_node  payload_contract_node;
    v_given jsonb;
BEGIN
    FOR v_given IN
        SELECT e.value FROM jsonb_array_elements(p_nodes) WITH ORDINALITY e ORDER BY e.ordinality
    LOOP
        v_node := jsonb_populate_record(NULL::payload_contract_node, v_given);
        IF jsonb_strip_nulls(to_jsonb(v_node)) <> v_given THEN
            RAISE EXCEPTION 'contract node % has keys or values payload_contract_node cannot hold',
                v_given;
        END IF;
        v_node.required := coalesce(v_node.required, false);
        v_nodes := v_nodes || v_node;
    END LOOP;
    RETURN v_nodes;
END
$$;

-- NULL when p_nodes is a contract the functions below can read, else what is wrong with it: nodes
-- numbered 0.. in order, depth first (every node between a node and its parent descends from
-- that parent), node 0 the payload object, fields only under objects with declared fields,
-- one shared child under an array or a map, constraint values within their vocabularies.
CREATE OR REPLACE FUNCTION payload_nodes_problem(p_nodes payload_contract_node[]) RETURNS text
LANGUAGE sql
IMMUTABLE
SET search_path = public, pg_temp
AS $$
    SELECT coalesce(
        (SELECT format('node %s: %s', n.node, problem)
         FROM unnest(p_nodes) WITH ORDINALITY AS n
         LEFT JOIN LATERAL unnest(p_nodes) WITH ORDINALITY AS up ON up.node = n.parent
         CROSS JOIN LATERAL (SELECT CASE
             WHEN n.node IS DISTINCT FROM (n.ordinality - 1)::integer THEN 'numbered out of order'
             WHEN (n.node = 0) <> (n.role = 'payload') OR (n.node = 0) <> (n.parent IS NULL)
                 THEN 'only node 0, the payload, has no parent'
             WHEN n.parent >= n.node THEN 'its parent comes after it'
             WHEN EXISTS (SELECT 1 FROM unnest(p_nodes) b
                          WHERE b.node > n.parent AND b.node < n.node AND b.parent < n.parent)
                 THEN 'not numbered depth first'
             WHEN n.role NOT IN ('payload', 'field', 'item', 'value') THEN 'unknown role'
             WHEN (n.role = 'field') <> (n.field_name IS NOT NULL)
                 THEN 'a field_name belongs to fields alone'
             WHEN n.role = 'field' AND up.object_kind IS DISTINCT FROM 'struct'
                 THEN 'a field under a node without declared fields'
             WHEN n.role = 'item' AND NOT 'array' = ANY (up.json_types)
                 THEN 'an item under a node that is not an array'
             WHEN n.role = 'value' AND up.object_kind IS DISTINCT FROM 'map'
                 THEN 'a value under a node that is not a map'
             WHEN n.role IN ('item', 'value')
                  AND (SELECT count(*) FROM unnest(p_nodes) s WHERE s.parent = n.parent) > 1
                 THEN 'an array or map has more than one child'
             WHEN NOT n.json_types <@ ARRAY['null', 'boolean', 'integer', 'number', 'string',
                                            'array', 'object']
                 THEN 'unknown JSON type'
             WHEN ('array' = ANY (n.json_types) AND 'object' = ANY (n.json_types))
                  OR ('integer' = ANY (n.json_types) AND 'number' = ANY (n.json_types))
                 THEN 'ambiguous JSON types'
             WHEN ('object' = ANY (n.json_types)) <> (n.object_kind IS NOT NULL)
                  OR n.object_kind NOT IN ('struct', 'map')
                 THEN 'objects need an object_kind of struct or map'
             WHEN (n.object_kind = 'struct') <> (n.extra_fields IS NOT NULL)
                  OR n.extra_fields NOT IN ('ignore', 'forbid')
                 THEN 'structs need extra_fields ignore or forbid'
             WHEN (n.pattern IS NULL) <> (n.pg_pattern IS NULL) THEN 'pattern without pg_pattern'
             WHEN n.format NOT IN ('date-time') THEN 'unknown format'
             WHEN n.multiple_of <= 0 THEN 'multiple_of must be positive'
             END AS problem) c
         WHERE c.problem IS NOT NULL
         ORDER BY n.ordinality
         LIMIT 1),
        CASE WHEN cardinality(p_nodes) > 0 THEN NULL
             ELSE 'a contract needs at least the payload node' END);
$$;

-- What the worker's first reading demands: it decodes the envelope's payload as plain JSON, so
-- any value nested deeper than 64 levels, or any number with a fraction beyond the float
-- range, fails there whatever the field (unknown fields included). An integer that large
-- stays an integer in plain JSON; float fields refuse it later, in payload_walk_problem.
CREATE OR REPLACE FUNCTION payload_plain_json_problem(p_payload jsonb) RETURNS text
LANGUAGE plpgsql
STABLE
SET search_path = public, pg_temp
AS $$
DECLARE
    v_number jsonb;
BEGIN
    IF jsonb_path_exists(p_payload, 'strict $.**{65 to last}') THEN
        RETURN '$: values are nested more than 64 levels deep';
    END IF;
    SELECT n INTO v_number
    FROM jsonb_path_query(p_payload, 'strict $.** ? (@.type() == "number")') n
    WHERE strpos(n::text, '.') > 0 AND abs(n::numeric) >= payload_float_overflow()
    LIMIT 1;
    IF FOUND THEN
        RETURN format('$: the number %s... is out of range for a float', left(v_number::text, 24));
    END IF;
    RETURN NULL;
END
$$;

-- msgspec's RFC 3339 reading: date, 'T', 't' or ' ', time with seconds, an optional fraction
-- of any length (rounded half up to microseconds) and an optional 'Z', 'z', +HH:MM or +HHMM.
-- The shape is one match without capture groups (those make PostgreSQL's matcher far slower);
-- the parts then sit at fixed positions.
CREATE OR REPLACE FUNCTION payload_is_datetime(p_text text) RETURNS boolean
LANGUAGE plpgsql
IMMUTABLE
SET search_path = public, pg_temp
AS $$
DECLARE
    v_year   integer;
    v_month  integer;
    v_day    integer;
    v_tail   text;
    v_offset text;
BEGIN
    IF p_text !~ ('^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}'
                  '(\.[0-9]+)?([Zz]|[+-][0-9]{2}:?[0-9]{2})?$') THEN
        RETURN false;
    END IF;
    v_year := substr(p_text, 1, 4)::integer;
    v_month := substr(p_text, 6, 2)::integer;
    v_day := substr(p_text, 9, 2)::integer;
    IF v_year < 1 OR v_month NOT BETWEEN 1 AND 12 OR v_day < 1
       OR v_day > extract(day FROM make_date(v_year, v_month, 1) + interval '1 month - 1 day')
       OR substr(p_text, 12, 2)::integer > 23 OR substr(p_text, 15, 2)::integer > 59
       OR substr(p_text, 18, 2)::integer > 59 THEN
        RETURN false;
    END IF;
    v_tail := substr(p_text, 20);  -- fraction and offset, either possibly empty
    v_offset := substr(v_tail, greatest(strpos(v_tail, '+'), strpos(v_tail, '-')));
    IF v_offset ~ '^[+-]' AND (substr(v_offset, 2, 2)::integer > 23
                               OR right(v_offset, 2)::integer > 59) THEN
        RETURN false;
    END IF;
    -- A fraction that rounds up to the next second must not leave year 9999.
    RETURN NOT (left(p_text, 10) = '9999-12-31' AND substr(p_text, 12, 8) = '23:59:59'
                AND substr(v_tail, 1, 8) ~ '^\.9{6}[5-9]');
END
$$;

-- The jsonpath predicate (strict mode, on the current item @) that holds exactly when the item
-- satisfies node p_at and everything below it; '' when the node accepts any value, NULL when
-- it needs a check jsonpath cannot express exactly (a date-time, a map's size, a string bound
-- over 255). Strict mode never unwraps arrays, and an error there makes a predicate unknown,
-- so the parts are built to be true only for a valid item: a field is checked with a filter
-- (exists (@."k" ? (...))), and "every item passes" is "no item whose check is false or
-- unknown". One rule jsonpath cannot see is left to payload_problem: an integer written with
-- a fraction of zeros (5.0).
CREATE OR REPLACE FUNCTION payload_fast_predicate(p_nodes payload_contract_node[], p_at integer)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SET search_path = public, pg_temp
AS $$
DECLARE
    v_node  payload_contract_node := p_nodes[p_at + 1];
    v_child payload_contract_node;
    v_alts  text[] := '{}';
    v_parts text[];
    v_sub   text;
    v_type  text;
    v_key   text;
    v_keys  text[];
BEGIN
    IF v_node.json_types IS NULL THEN
        RETURN '';
    END IF;
    FOREACH v_type IN ARRAY v_node.json_types LOOP
        -- @ == @.floor() holds for numbers alone (on any other type it is an error, so
        -- unknown), which makes a type test for integers redundant.
        v_parts := CASE WHEN v_type = 'integer' THEN '{}'
                        ELSE ARRAY[format('@.type() == %s', to_jsonb(v_type))] END;
        CASE v_type
        WHEN 'integer' THEN
            v_parts := v_parts
                || '@ == @.floor()'::text
                || CASE WHEN v_node.minimum IS NOT NULL THEN '@ >= ' || v_node.minimum END
                || CASE WHEN v_node.exclusive_minimum IS NOT NULL
                        THEN '@ > ' || v_node.exclusive_minimum END
                || CASE WHEN v_node.maximum IS NOT NULL THEN '@ <= ' || v_node.maximum END
                || CASE WHEN v_node.exclusive_maximum IS NOT NULL
                        THEN '@ < ' || v_node.exclusive_maximum END
                || CASE WHEN v_node.multiple_of IS NOT NULL
                        THEN '@ % ' || v_node.multiple_of || ' == 0' END;
        WHEN 'number' THEN
            v_parts := v_parts
                || format('@ < %s && @ > -%s', payload_float_overflow(), payload_float_overflow());
        WHEN 'string' THEN
            IF v_node.format IS NOT NULL OR v_node.min_length > 255 OR v_node.max_length > 255 THEN
                RETURN NULL;
            END IF;
            IF v_node.enum_values IS NOT NULL THEN
                v_parts := v_parts
                    || ('(' || (SELECT string_agg('@ == ' || to_jsonb(e)::text, ' || ')
                                FROM unnest(v_node.enum_values) e) || ')');
            END IF;
            IF v_node.min_length IS NOT NULL OR v_node.max_length IS NOT NULL THEN
                v_parts := v_parts || format('@ like_regex %s flag "s"', to_jsonb(
                    format('^.{%s,%s}$', coalesce(v_node.min_length, 0), v_node.max_length)));
            END IF;
            IF v_node.pg_pattern IS NOT NULL THEN
                v_parts := v_parts || format('@ like_regex %s flag "s"', to_jsonb(v_node.pg_pattern));
            END IF;
        WHEN 'array' THEN
            v_parts := v_parts
                || CASE WHEN v_node.min_items IS NOT NULL THEN '@.size() >= ' || v_node.min_items END
                || CASE WHEN v_node.max_items IS NOT NULL THEN '@.size() <= ' || v_node.max_items END;
            v_child := p_nodes[p_at + 2];  -- the items' node, if it is this node's child
            IF v_child.parent IS NOT DISTINCT FROM p_at THEN
                v_sub := payload_fast_predicate(p_nodes, p_at + 1);
                IF v_sub IS NULL THEN
                    RETURN NULL;
                ELSIF v_sub <> '' THEN
                    v_parts := v_parts
                        || format('!exists (@[*] ? ((%s) is unknown || !(%s)))', v_sub, v_sub);
                END IF;
            END IF;
        WHEN 'object' THEN
            IF v_node.object_kind = 'map' THEN
                IF v_node.min_items IS NOT NULL OR v_node.max_items IS NOT NULL THEN
                    RETURN NULL;
                END IF;
                v_child := p_nodes[p_at + 2];  -- the values' node, if it is this node's child
                IF v_child.parent IS NOT DISTINCT FROM p_at THEN
                    v_sub := payload_fast_predicate(p_nodes, p_at + 1);
                    IF v_sub IS NULL THEN
                        RETURN NULL;
                    ELSIF v_sub <> '' THEN
                        v_sub := format('exists (@.value ? (%s))', v_sub);
                        v_parts := v_parts || format(
                            '!exists (@.keyvalue() ? ((%s) is unknown || !(%s)))', v_sub, v_sub);
                    END IF;
                END IF;
            ELSE
                v_keys := '{}';
                FOR i IN p_at + 1 .. cardinality(p_nodes) - 1 LOOP
                    v_child := p_nodes[i + 1];
                    EXIT WHEN v_child.parent < p_at;
                    CONTINUE WHEN v_child.parent > p_at;
                    v_keys := v_keys || v_child.field_name;
                    v_key := to_jsonb(v_child.field_name)::text;
                    v_sub := payload_fast_predicate(p_nodes, i);
                    IF v_sub IS NULL THEN
                        RETURN NULL;
                    END IF;
                    v_sub := CASE WHEN v_sub = '' THEN format('exists (@.%s)', v_key)
                                  ELSE format('exists (@.%s ? (%s))', v_key, v_sub) END;
                    -- In strict mode @."k" of an absent key is an error, so exists() of it is
                    -- unknown, and of a present one true: that tests absence without listing
                    -- every key of the object, as @.keyvalue() would.
                    v_parts := v_parts || CASE
                        WHEN v_child.required THEN v_sub
                        ELSE format('(%s || (exists (@.%s)) is unknown)', v_sub, v_key)
                        END;
                END LOOP;
                IF v_node.extra_fields = 'forbid' THEN
                    v_parts := v_parts || format('!exists (@.keyvalue()%s)',
                        (SELECT coalesce(' ? (' || string_agg('@.key != ' || to_jsonb(k)::text, ' && ')
                                         || ')', '')
                         FROM unnest(v_keys) k));
                END IF;
            END IF;
        ELSE
            NULL;  -- null and boolean: the type test is all
        END CASE;
        v_alts := v_alts || ('(' || array_to_string(v_parts, ' && ') || ')');
    END LOOP;
    RETURN array_to_string(v_alts, ' || ');
END
$$;

-- The whole contract as one jsonpath predicate, or NULL when some part cannot be expressed;
-- payload_contracts stores it, so most enqueues are decided by a single jsonb_path_match. It
-- includes payload_walk_problem's screen: nothing nested past 64 levels, no number near the
-- float range.
CREATE OR REPLACE FUNCTION payload_fast_check(p_nodes payload_contract_node[]) RETURNS jsonpath
LANGUAGE sql
IMMUTABLE
SET search_path = public, pg_temp
AS $$
    SELECT ('strict exists ($ ? (' || predicate || '))'
            || ' && !exists ($.**{65 to last})'
            || ' && !exists ($.** ? (@.type() == "number" && (@ >= 1e308 || @ <= -1e308)))')::jsonpath
    FROM (SELECT CASE WHEN payload_nodes_problem(p_nodes) IS NULL
                      THEN nullif(payload_fast_predicate(p_nodes, 0), '') END AS predicate) p;
$$;

-- jsonpath cannot tell 5.0 from 5, and msgspec refuses 5.0 for an int, so the fast check
-- decides a payload only where no integer-only value can be written with a fraction of zeros.
-- This regex on the payload's JSON text (as jsonb renders it: "key": value) finds where one
-- may be; NULL when the contract has no integer-only value at all. When every integer-only
-- value is a struct field it names their keys, so a whole float such as "time": 100.0 passes;
-- an integer-only array item or map value may sit anywhere, so then every number with a
-- fraction of zeros is suspect. A match only sends the payload to payload_walk_problem.
CREATE OR REPLACE FUNCTION payload_fraction_screen(p_nodes payload_contract_node[]) RETURNS text
LANGUAGE sql
IMMUTABLE
SET search_path = public, pg_temp
AS $$
    SELECT CASE
        WHEN count(*) = 0 THEN NULL
        WHEN bool_or(n.role <> 'field') THEN '\.0+[],}]'
        -- Keys as JSON text with the regex's special characters escaped: a backslash before
        -- one of them means the character itself, whatever the locale.
        ELSE '(?:' || string_agg(DISTINCT regexp_replace(to_jsonb(n.field_name)::text,
                                                         '([.^$|?*+()[\]{}\\])', '\\\1', 'g'), '|')
             || '): -?[0-9]+\.0+[,}]'
    END
    FROM unnest(p_nodes) n
    WHERE 'integer' = ANY (n.json_types) AND NOT 'number' = ANY (n.json_types);
$$;

-- Whether a payload's JSON text (p_body) may hold an integer-only value written with a
-- fraction of zeros, given its contract's fraction_screen: then the contract's jsonpath cannot
-- decide it. Most payloads hold no ".0" at all, which strpos finds faster than either regex.
-- Its body is bound when it is created and it sets nothing, so callers inline it.
CREATE OR REPLACE FUNCTION payload_fraction_suspect(p_body text, p_screen text) RETURNS boolean
LANGUAGE sql
IMMUTABLE PARALLEL SAFE
RETURN p_screen IS NOT NULL AND strpos(p_body, '.0') > 0 AND p_body ~ '\.0+[],}]'
       AND p_body ~ p_screen;

-- The exact check behind payload_problem: NULL when the worker can decode p_payload as
-- version p_version of p_event_name, otherwise the first problem, naming the place by its
-- JSON path ("$.user_id: expected integer, got string"). It applies what reading the payload
-- as plain JSON demands (the worker does that first, for the envelope), then the contract
-- level by level: every field of an object, in declaration order, before anything nested in
-- them. A queue of (contract node, value, path) still to check replaces recursion; the
-- children of a node are found by position, because nodes are numbered depth first (a
-- node's subtree follows it; its first child, if any, is node + 1).
CREATE OR REPLACE FUNCTION payload_walk_problem(
    p_event_name text, p_version integer, p_payload jsonb
) RETURNS text
LANGUAGE plpgsql
STABLE
SET search_path = public, pg_temp
AS $$
DECLARE
    v_nodes   payload_contract_node[];
    v_count   integer;
    v_problem text;
    -- Values still to check: contract node number, value (NULL for an absent field), path.
    v_todo_node  integer[] := ARRAY[0];
    v_todo_value jsonb[] := ARRAY[p_payload];
    v_todo_path  text[] := ARRAY['$'];
    v_next    integer := 0;
    v_at      integer;
    v_node    payload_contract_node;
    v_child   payload_contract_node;
    v_value   jsonb;
    v_path    text;
    v_kind    text;
    v_text    text;
    v_number  numeric;
    v_size    bigint;
    v_names   text[];
    v_key     text;
BEGIN
    SELECT c.nodes INTO v_nodes FROM payload_contracts c
    WHERE c.event_name = p_event_name AND c.payload_version = p_version;
    IF NOT FOUND THEN
        RETURN format('version %s is not supported (supported: %s)',
            coalesce(p_version::text, 'NULL'),
            coalesce((SELECT string_agg(c.payload_version::text, ', ' ORDER BY c.payload_version)
                      FROM payload_contracts c WHERE c.event_name = p_event_name), 'none'));
    END IF;
    v_count := cardinality(v_nodes);
    -- A cheap screen; only a payload that is deeply nested or holds a huge number pays for
    -- the exact check.
    IF jsonb_path_match(p_payload, 'exists ($.**{65 to last})
            || exists ($.** ? (@.type() == "number" && (@ >= 1e308 || @ <= -1e308)))') THEN
        v_problem := payload_plain_json_problem(p_payload);
        IF v_problem IS NOT NULL THEN
            RETURN v_problem;
        END IF;
    END IF;

    WHILE v_next < cardinality(v_todo_node) LOOP
        v_next := v_next + 1;
        v_at := v_todo_node[v_next];
        v_value := v_todo_value[v_next];
        v_path := v_todo_path[v_next];
        v_node := v_nodes[v_at + 1];

        IF v_value IS NULL THEN
            IF v_node.required THEN
                RETURN v_path || ': required field is missing';
            END IF;
            CONTINUE;
        END IF;
        CONTINUE WHEN v_node.json_types IS NULL;  -- any JSON value

        -- JSON has one number type; msgspec tells an integer by the absence of a fraction.
        v_kind := jsonb_typeof(v_value);
        IF v_kind = 'number' AND 'integer' = ANY (v_node.json_types) THEN
            IF strpos(v_value::text, '.') = 0 THEN
                v_kind := 'integer';
            ELSIF NOT 'number' = ANY (v_node.json_types) THEN
                RETURN format('%s: expected %s, got a number with a fraction',
                    v_path, array_to_string(v_node.json_types, ' or '));
            END IF;
        END IF;
        IF NOT v_kind = ANY (v_node.json_types) THEN
            RETURN format('%s: expected %s, got %s',
                v_path, array_to_string(v_node.json_types, ' or '), v_kind);
        END IF;

        CASE v_kind
        WHEN 'string' THEN
            CONTINUE WHEN num_nonnulls(v_node.enum_values, v_node.min_length, v_node.max_length,
                                       v_node.pg_pattern, v_node.format) = 0;
            v_text := v_value #>> '{}';
            IF NOT v_text = ANY (v_node.enum_values) THEN
                RETURN format('%s: must be one of %s', v_path, to_jsonb(v_node.enum_values));
            END IF;
            v_size := char_length(v_text);
            IF v_size < v_node.min_length THEN
                RETURN format('%s: %s characters, fewer than the minimum of %s',
                    v_path, v_size, v_node.min_length);
            ELSIF v_size > v_node.max_length THEN
                RETURN format('%s: %s characters, more than the maximum of %s',
                    v_path, v_size, v_node.max_length);
            ELSIF v_text !~ v_node.pg_pattern THEN
                RETURN format('%s: does not match the pattern %s', v_path, v_node.pattern);
            ELSIF v_node.format = 'date-time' AND NOT payload_is_datetime(v_text) THEN
                RETURN format('%s: not an RFC 3339 date-time', v_path);
            END IF;
        WHEN 'integer' THEN
            CONTINUE WHEN num_nonnulls(v_node.minimum, v_node.exclusive_minimum, v_node.maximum,
                                       v_node.exclusive_maximum, v_node.multiple_of) = 0;
            v_number := v_value::numeric;
            IF v_number < v_node.minimum THEN
                RETURN format('%s: %s is less than the minimum %s',
                    v_path, v_number, v_node.minimum);
            ELSIF v_number <= v_node.exclusive_minimum THEN
                RETURN format('%s: %s is not greater than %s',
                    v_path, v_number, v_node.exclusive_minimum);
            ELSIF v_number > v_node.maximum THEN
                RETURN format('%s: %s is more than the maximum %s',
                    v_path, v_number, v_node.maximum);
            ELSIF v_number >= v_node.exclusive_maximum THEN
                RETURN format('%s: %s is not less than %s',
                    v_path, v_number, v_node.exclusive_maximum);
            ELSIF v_number % v_node.multiple_of <> 0 THEN
                RETURN format('%s: %s is not a multiple of %s',
                    v_path, v_number, v_node.multiple_of);
            END IF;
        WHEN 'number' THEN
            IF abs(v_value::numeric) >= payload_float_overflow() THEN
                RETURN format('%s: out of range for a float', v_path);
            END IF;
        WHEN 'array' THEN
            v_size := jsonb_array_length(v_value);
            IF v_size < v_node.min_items THEN
                RETURN format('%s: %s items, fewer than the minimum of %s',
                    v_path, v_size, v_node.min_items);
            ELSIF v_size > v_node.max_items THEN
                RETURN format('%s: %s items, more than the maximum of %s',
                    v_path, v_size, v_node.max_items);
            END IF;
            -- Every item is checked against the one child node, the next node.
            FOR i IN 0 .. v_size - 1 LOOP
                v_todo_node := v_todo_node || (v_at + 1);
                v_todo_value := v_todo_value || (v_value -> i);
                v_todo_path := v_todo_path || format('%s[%s]', v_path, i);
            END LOOP;
        WHEN 'object' THEN
            IF v_node.object_kind = 'struct' THEN
                -- The fields are the nodes of this subtree whose parent is this node.
                v_names := '{}';
                FOR i IN v_at + 1 .. v_count - 1 LOOP
                    v_child := v_nodes[i + 1];
                    EXIT WHEN v_child.parent < v_at;
                    CONTINUE WHEN v_child.parent > v_at;
                    v_names := v_names || v_child.field_name;
                    v_todo_node := v_todo_node || i;
                    v_todo_value := v_todo_value || (v_value -> v_child.field_name);
                    v_todo_path := v_todo_path || (v_path || '.' || v_child.field_name);
                END LOOP;
                IF v_node.extra_fields = 'forbid' THEN
                    SELECT k INTO v_key FROM jsonb_object_keys(v_value) k
                    WHERE k <> ALL (v_names) ORDER BY k LIMIT 1;
                    IF FOUND THEN
                        RETURN format('%s.%s: unknown field', v_path, v_key);
                    END IF;
                END IF;
            ELSE
                IF v_node.min_items IS NOT NULL OR v_node.max_items IS NOT NULL THEN
                    SELECT count(*) INTO v_size FROM jsonb_object_keys(v_value);
                    IF v_size < v_node.min_items THEN
                        RETURN format('%s: %s entries, fewer than the minimum of %s',
                            v_path, v_size, v_node.min_items);
                    ELSIF v_size > v_node.max_items THEN
                        RETURN format('%s: %s entries, more than the maximum of %s',
                            v_path, v_size, v_node.max_items);
                    END IF;
                END IF;
                -- A map's values share its one child node, if it constrains them at all.
                CONTINUE WHEN v_at + 1 >= v_count
                              OR (v_nodes[v_at + 2]).parent IS DISTINCT FROM v_at;
                FOR v_key IN SELECT k FROM jsonb_object_keys(v_value) k ORDER BY k LOOP
                    v_todo_node := v_todo_node || (v_at + 1);
                    v_todo_value := v_todo_value || (v_value -> v_key);
                    v_todo_path := v_todo_path || format('%s[%s]', v_path, to_jsonb(v_key));
                END LOOP;
            END IF;
        ELSE
            NULL;  -- null and boolean carry no further constraints
        END CASE;
    END LOOP;
    RETURN NULL;
END
$$;

-- NULL when the worker can decode p_payload as version p_version of p_event_name; otherwise
-- the first problem: an unsupported version, the size limit, or what payload_walk_problem
-- finds. It runs on every enqueue, so a payload the contract's jsonpath accepts, and whose
-- text holds no number with a fraction of zeros where an integer may be (jsonpath cannot tell
-- 5.0 from 5; payload_fraction_screen), is decided without walking it. The plain screen
-- comes first: most payloads have no such number, and their contract's regex is never
-- compiled.
CREATE OR REPLACE FUNCTION payload_problem(p_event_name text, p_version integer, p_payload jsonb)
RETURNS text
LANGUAGE plpgsql
STABLE
SET search_path = public, pg_temp
AS $$
DECLARE
    v_fast   jsonpath;
    v_screen text;
    v_text   text;
BEGIN
    SELECT c.fast_check, c.fraction_screen INTO v_fast, v_screen FROM payload_contracts c
    WHERE c.event_name = p_event_name AND c.payload_version = p_version;
    IF NOT FOUND THEN
        RETURN format('version %s is not supported (supported: %s)',
            coalesce(p_version::text, 'NULL'),
            coalesce((SELECT string_agg(c.payload_version::text, ', ' ORDER BY c.payload_version)
                      FROM payload_contracts c WHERE c.event_name = p_event_name), 'none'));
    END IF;
    v_text := p_payload::text;
    IF octet_length(v_text) > payload_max_bytes() THEN
        RETURN format('$: %s bytes of JSON text, more than the limit of %s bytes',
            octet_length(v_text), payload_max_bytes());
    END IF;
    IF v_fast IS NOT NULL
       AND NOT payload_fraction_suspect(v_text, v_screen)
       AND jsonb_path_match(p_payload, v_fast, '{}', true) IS TRUE THEN
        RETURN NULL;
    END IF;
    RETURN payload_walk_problem(p_event_name, p_version, p_payload);
END
$$;
