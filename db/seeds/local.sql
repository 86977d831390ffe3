-- Sample domain data for local runs; not part of the migration plan. Apply as the database
-- owner after migrating (psql -f db/seeds/local.sql). Safe to apply again: every insert skips
-- rows that already exist. The API user 'local' has no key here: keys are made at startup.

BEGIN;

INSERT INTO core.users (id, nickname, global_name, is_mod) VALUES
    (1000000000000000000, 'Genji Shimada', NULL, false),
    (1000000000000000001, 'Nebula', 'nebula', true),
    (1000000000000000002, 'Kestrel', 'kestrel', false),
    (1000000000000000003, 'Saffron', NULL, false),
    (1000000000000000004, 'Tundra', 'tundra_ow', false),
    (1000000000000000005, 'Marlow', NULL, false),
    -- The queue operator, who presses the local view's buttons by default (a moderator).
    (141372217677053952, 'Operator', NULL, true)
ON CONFLICT (id) DO NOTHING;

INSERT INTO users.overwatch_usernames (user_id, username, is_primary) VALUES
    (1000000000000000001, 'Nebula#1101', true),
    (1000000000000000002, 'Kestrel#2202', true),
    (1000000000000000002, 'KestrelAlt#2203', false),
    (1000000000000000003, 'Saffron#3303', true),
    (1000000000000000004, 'Tundra#4404', true)
ON CONFLICT (user_id, username) DO NOTHING;

INSERT INTO core.maps
    (code, map_name, category, checkpoints, official, playtesting, hidden, archived, raw_difficulty)
VALUES
    ('HANA1', 'Hanamura', 'Classic', 12, true, 'Approved', false, false, 2.40),
    ('KING2', 'King''s Row', 'Classic', 20, true, 'Approved', false, false, 6.10),
    ('NEPAL', 'Nepal', 'Classic', 8, true, 'In Progress', true, false, 4.00),
    ('UNOF1', 'Hanamura', 'Classic', 12, false, 'Approved', false, false, 2.80),
    ('ARCH1', 'Eichenwalde', 'Classic', 15, true, 'Approved', true, true, 5.20),
    ('HELL9', 'Ilios', 'Classic', 30, true, 'Approved', false, false, 9.60)
ON CONFLICT (code) DO NOTHING;

INSERT INTO maps.creators (map_id, user_id, is_primary)
SELECT m.id, c.user_id, c.is_primary
FROM (VALUES
    ('HANA1', 1000000000000000002, true),
    ('KING2', 1000000000000000002, true),
    ('KING2', 1000000000000000003, false),
    ('NEPAL', 1000000000000000003, true),
    ('UNOF1', 1000000000000000004, true),
    ('ARCH1', 1000000000000000005, true),
    ('HELL9', 1000000000000000001, true)
) AS c (code, user_id, is_primary)
JOIN core.maps m ON m.code = c.code
ON CONFLICT (map_id, user_id) DO NOTHING;

-- The official and unofficial Hanamura are linked (the trigger links the counterpart).
UPDATE core.maps SET linked_code = 'UNOF1' WHERE code = 'HANA1' AND linked_code IS NULL;
INSERT INTO maps.link_operations (official_map_id, unofficial_map_id)
SELECT o.id, u.id FROM core.maps o, core.maps u
WHERE o.code = 'HANA1' AND u.code = 'UNOF1'
  AND NOT EXISTS (
      SELECT 1 FROM maps.link_operations l
      WHERE l.official_map_id = o.id AND l.unofficial_map_id = u.id
  );

-- The map in playtest has an open playtest, its thread not made yet.
INSERT INTO playtests.meta (map_id, initial_difficulty)
SELECT id, 4.00 FROM core.maps WHERE code = 'NEPAL'
ON CONFLICT (map_id) WHERE NOT completed DO NOTHING;

INSERT INTO tournaments.categories (name, difficulties, participation_xp, placement_xp, streak_xp)
VALUES
    ('Beginner', '{"Easy -","Easy","Easy +","Medium -","Medium","Medium +"}', 50,
     '[{"place": 1, "xp": 300}, {"place": 2, "xp": 200}, {"place": 3, "xp": 100}]',
     '[{"threshold": 3, "xp": 100}, {"threshold": 5, "xp": 250}]'),
    ('Expert', '{"Very Hard -","Very Hard","Very Hard +","Extreme -","Extreme","Extreme +","Hell"}', 100,
     '[{"place": 1, "xp": 600}, {"place": 2, "xp": 400}, {"place": 3, "xp": 200}]',
     '[{"threshold": 3, "xp": 200}, {"threshold": 5, "xp": 500}]')
ON CONFLICT (name) DO NOTHING;

INSERT INTO tournaments.editions (started_at, ends_at, status, start_announced)
SELECT now() - interval '1 day', now() + interval '6 days', 'active', true
WHERE NOT EXISTS (SELECT 1 FROM tournaments.editions WHERE status = 'active');

INSERT INTO tournaments.cycles (edition_id, category_id, map_id, status, started_at)
SELECT e.id, c.id, m.id, 'active', e.started_at
FROM (SELECT id, started_at FROM tournaments.editions WHERE status = 'active'
      ORDER BY id DESC LIMIT 1) AS e
CROSS JOIN (VALUES ('Beginner', 'HANA1'), ('Expert', 'HELL9')) AS pick (category, code)
JOIN tournaments.categories c ON c.name = pick.category
JOIN core.maps m ON m.code = pick.code
ON CONFLICT (edition_id, category_id) WHERE status = 'active' DO NOTHING;

INSERT INTO auth.users (username, info) VALUES ('local', 'Local development client')
ON CONFLICT (username) DO NOTHING;

COMMIT;
