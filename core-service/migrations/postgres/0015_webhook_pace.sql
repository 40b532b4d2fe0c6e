-- A receiver that answers 429 Too Many Requests asks to be called more slowly: until this time
-- the dispatcher leases none of the webhook's deliveries (core-service/src/webhooks/retry.rs,
-- `SlowDown`). NULL: the receiver asked nothing.
ALTER TABLE webhooks ADD COLUMN slow_down_until TIMESTAMPTZ;

-- The most calls a webhook gets per second (`maxDeliveriesPerSecond`, 1 to 1000); NULL: no limit.
-- `paced_until` is the lease's token bucket (storage/webhooks/pace.rs): the time up to which the
-- calls already leased have used the rate. Leases lock the row (PostgreSQL) or hold the one writer
-- (SQLite), so replicas of the dispatcher share one pace.
ALTER TABLE webhooks ADD COLUMN max_deliveries_per_second INTEGER;
ALTER TABLE webhooks ADD COLUMN paced_until TIMESTAMPTZ;
