SELECT xact_id FROM job_actions WHERE false;
