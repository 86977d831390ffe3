DROP FUNCTION job_list_finished(text, text, integer);
DROP FUNCTION job_lookup(text, integer);
