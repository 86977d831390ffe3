SELECT retry_delays FROM queue_workers WHERE false;
