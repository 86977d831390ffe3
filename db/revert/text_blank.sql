DROP FUNCTION text_is_blank(text);
