DROP TRIGGER tg_pgqueuer_changed ON pgqueuer;
DROP FUNCTION fn_pgqueuer_changed();
DROP TABLE pgqueuer_schedules;
DROP TABLE pgqueuer_statistics;
DROP TABLE pgqueuer_log;
DROP TABLE pgqueuer;
DROP TYPE pgqueuer_status;
