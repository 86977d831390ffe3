DROP TRIGGER pgqueuer_truncate_keeps_held_rows ON pgqueuer;
DROP TRIGGER pgqueuer_rows_have_identity ON pgqueuer;
DROP TRIGGER pgqueuer_held_rows_discard_through_recovery ON pgqueuer;
DROP TRIGGER pgqueuer_held_rows_requeue_through_recovery ON pgqueuer;
DROP FUNCTION recovery_guard_truncate();
DROP FUNCTION recovery_guard_identity();
DROP FUNCTION recovery_guard_held_row();
