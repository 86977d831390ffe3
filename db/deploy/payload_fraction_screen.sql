-- Where a contract's integers may be written with a fraction of zeros, which its jsonpath
-- cannot see (payload_fraction_screen), stored beside that jsonpath.
ALTER TABLE payload_contracts
    ADD COLUMN fraction_screen text GENERATED ALWAYS AS (payload_fraction_screen(nodes)) STORED;
-- Every stored check is recomputed with the current generators, payload_fast_check's included.
UPDATE payload_contracts SET nodes = nodes;
