DROP TABLE public.processed_messages;
DROP TABLE public.jobs;
DROP TYPE job_status;
