-- 0014: the audit log's actions read whole (src/server/audit/). An action that takes time is written when it starts
-- and again when it ends, the end naming the start (details.started); the console shows each action once, so it
-- finds a start's end by this index, whatever the log's size (the product's redemptions are audited too).
CREATE INDEX waitlist_audit_started_idx ON waitlist_audit (((details ->> 'started')::bigint))
  WHERE details ? 'started';
