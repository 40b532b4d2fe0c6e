-- A receiver that answers 429 Too Many Requests asks to be called more slowly: until this time
-- the dispatcher leases none of the webhook's deliveries (core-service/src/webhooks/retry.rs,
-- `SlowDown`). NULL: the receiver asked nothing.
ALTER TABLE webhooks ADD COLUMN slow_down_until TIMESTAMPTZ;
