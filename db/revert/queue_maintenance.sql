DROP TABLE queue_maintenance;
