SELECT 'job_lookup(text, integer)'::regprocedure;
SELECT 'job_list_finished(text, text, integer)'::regprocedure;
