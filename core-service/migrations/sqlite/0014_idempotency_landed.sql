-- What an idempotent create wrote, recorded in the write's own transaction: a JSON array of
-- `{"id", "version", "type"}`, one per item inserted, in order. Set while `response` is still
-- NULL, it means the call's write committed but its answer was never stored (the connection was
-- lost at the commit, as in a database failover): a retry then answers from it instead of
-- running the call a second time (core-service/src/service/items/idempotency.rs).
ALTER TABLE idempotency_keys ADD COLUMN landed TEXT;
