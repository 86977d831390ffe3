DROP TABLE effect_bindings;
DROP TABLE effect_receipts;
