DROP FUNCTION job_details(uuid);
DROP FUNCTION job_list(text, text, integer);
