-- Blank text, one definition for every check that refuses an empty reason or key: NULL, '' or
-- nothing but whitespace. btrim removes only spaces, so a tab, a line break or a no-break space
-- would pass for text. [[:space:]] gives the ASCII whitespace in any locale; the other
-- characters are listed because a database in the C locale does not class them as space: next
-- line U+0085, the Unicode space separators (U+00A0, U+1680, U+2000-U+200A, U+202F, U+205F,
-- U+3000), the line and paragraph separators U+2028 and U+2029, and the invisible zero-width
-- space U+200B and byte order mark U+FEFF.
-- No SET clause, so the planner inlines it into its caller (enqueue checks every key with it);
-- a function with a SET clause is called through the function manager every time. The
-- operator is named with its schema, so the caller's search_path cannot change what it means.
CREATE OR REPLACE FUNCTION text_is_blank(p_text text) RETURNS boolean
LANGUAGE sql
IMMUTABLE PARALLEL SAFE
AS $$
    SELECT p_text IS NULL OR p_text OPERATOR(pg_catalog.~)
        '^[[:space:]\u0085\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]*$'
$$;
