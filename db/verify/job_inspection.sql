SELECT 'job_list(text, text, integer)'::regprocedure;
SELECT 'job_details(uuid)'::regprocedure;
