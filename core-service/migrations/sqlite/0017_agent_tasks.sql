-- MCP tasks (the io.modelcontextprotocol/tasks extension; core-service/src/storage/items/agent_tasks.rs):
-- long agent work that a client follows by polling. The work runs in an mcp-gateway replica, which
-- renews `lease_until` while it runs; its write claims the row in its own transaction
-- (`committed_at`), so a cancel and a commit never both win.
CREATE TABLE agent_tasks (
    id             BLOB PRIMARY KEY NOT NULL,
    -- The person who started it: the only one who may read or cancel it.
    owner_id       BLOB NOT NULL,
    tool           TEXT NOT NULL,
    -- 'working', 'completed', 'failed' or 'cancelled'.
    status         TEXT NOT NULL,
    status_message TEXT NOT NULL,
    -- completed: the MCP CallToolResult (JSON); failed: the JSON-RPC error (JSON).
    result         TEXT,
    error          TEXT,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    -- Kept until then; read after it, the task has expired.
    expires_at     TEXT NOT NULL,
    -- A working task not renewed by then lost its gateway.
    lease_until    TEXT NOT NULL,
    -- When its write committed (in the write's transaction); NULL: nothing was written.
    committed_at   TEXT
);
-- Counting a person's working tasks (the limit), and pruning the expired.
CREATE INDEX agent_tasks_owner ON agent_tasks (owner_id, status);
CREATE INDEX agent_tasks_expiry ON agent_tasks (expires_at);
