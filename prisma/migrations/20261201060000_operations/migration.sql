-- Operations: the Delivery page's recent-window reads, and alerts (docs/operations.md).

-- The Delivery page's throughput and error rates read the last 15 minutes of the append-only
-- event log. Events are appended in time order (a webhook's event may carry a slightly earlier
-- provider time), so a BRIN range index finds the window's few pages among millions for a few
-- kilobytes of index, and costs inserts next to nothing (a B-tree would be written on every event).
CREATE INDEX notification_events_at_brin_idx ON herald.notification_events USING brin (at) WITH (autosummarize = on);

-- One row per raised alert. While a condition holds its alert stays open (resolved_at NULL); the
-- unique partial index is what makes an alert be raised once, not on every evaluation.
CREATE TABLE herald.alerts (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind        text             NOT NULL,
  -- What the condition is about: a breaker key, a channel:lane, or '' for workspace-wide ones.
  subject     text             NOT NULL DEFAULT '',
  message     text             NOT NULL,
  value       double precision NOT NULL,
  threshold   double precision NOT NULL,
  raised_at   timestamptz      NOT NULL DEFAULT now(),
  resolved_at timestamptz
);
CREATE UNIQUE INDEX alerts_open_idx ON herald.alerts (kind, subject) WHERE resolved_at IS NULL;
CREATE INDEX alerts_raised_idx ON herald.alerts (raised_at DESC, id DESC);

-- The alert webhook's signing secret, sealed with HERALD_SECRET_KEY like provider secrets. Its
-- URL and the thresholds are ordinary workspace settings.
CREATE TABLE herald.alert_webhook_secret (
  id                integer     PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  secret_ciphertext bytea       NOT NULL,
  updated_at        timestamptz NOT NULL DEFAULT now()
);
