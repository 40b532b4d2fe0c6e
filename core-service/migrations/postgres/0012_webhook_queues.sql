-- Each webhook's own queue of pending deliveries, oldest due first: a lease that may take only a
-- few of one webhook's deliveries (its receiver has calls in flight) reads them here instead of
-- every delivery the webhook ever had (`webhook_deliveries_webhook`) or the global due order.
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (webhook_id, next_attempt_at)
    WHERE state = 'pending';
