SELECT 'text_is_blank(text)'::regprocedure;
SELECT 1 / (text_is_blank(E'\t\n') AND NOT text_is_blank('a b'))::integer;
