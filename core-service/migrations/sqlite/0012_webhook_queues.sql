-- Each webhook's own queue of pending deliveries, oldest due first. A lease that leaves webhooks
-- out (their destination has as many calls in flight as it allows) walks the other webhooks'
-- queues through this index instead of stepping over the left-out ones' backlog in the global due
-- order, which cost a lease time in proportion to that backlog; a lease that may take only a few
-- of one webhook's deliveries reads them here too (docs/PERFORMANCE.md, "A slow receiver's
-- backlog"). `lease_until` is in the index so leased rows are passed over without reading the
-- table.
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (webhook_id, next_attempt_at, lease_until)
    WHERE state = 'pending';
