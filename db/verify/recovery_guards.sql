SELECT 'recovery_guard_held_row()'::regprocedure;
SELECT 'recovery_guard_identity()'::regprocedure;
SELECT 'recovery_guard_truncate()'::regprocedure;
SELECT 1/count(*) FROM pg_trigger WHERE tgrelid = 'pgqueuer'::regclass
    AND tgname = 'pgqueuer_held_rows_requeue_through_recovery';
SELECT 1/count(*) FROM pg_trigger WHERE tgrelid = 'pgqueuer'::regclass
    AND tgname = 'pgqueuer_held_rows_discard_through_recovery';
SELECT 1/count(*) FROM pg_trigger WHERE tgrelid = 'pgqueuer'::regclass
    AND tgname = 'pgqueuer_rows_have_identity';
SELECT 1/count(*) FROM pg_trigger WHERE tgrelid = 'pgqueuer'::regclass
    AND tgname = 'pgqueuer_truncate_keeps_held_rows';
SELECT 1/count(*) FROM pg_proc WHERE proname = 'recovery_guard_truncate' AND prosrc LIKE '%--reason%';
