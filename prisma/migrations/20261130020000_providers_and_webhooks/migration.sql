-- Real providers and the way back: provider configuration with secrets encrypted at rest, and
-- the raw inbound webhook log (deduplicated by the provider's own event id).

-- One row per (channel, role): the primary and an optional secondary the breaker fails over to.
-- Secrets are AES-256-GCM ciphertext under HERALD_SECRET_KEY; the key never reaches the database.
CREATE TABLE herald.provider_configs (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  channel           text        NOT NULL CHECK (channel IN ('push', 'email', 'sms')),
  role              text        NOT NULL CHECK (role IN ('primary', 'secondary')),
  kind              text        NOT NULL CHECK (kind IN ('fcm', 'ses', 'twilio', 'webhook')),
  -- Non-secret settings: region, sender, configuration set, messaging service, URL, rate.
  settings          jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(settings) = 'object'),
  secret_ciphertext bytea,
  enabled           boolean     NOT NULL DEFAULT true,
  updated_by        bigint      REFERENCES herald.members (id) ON DELETE SET NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (channel, role)
);

-- Every verified inbound webhook, kept raw, once per provider event id: providers retry their
-- callbacks, and a replay must change nothing. Applied by a job, never on the request path.
CREATE TABLE herald.webhook_events (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  provider    text        NOT NULL CHECK (provider IN ('ses', 'twilio', 'fcm', 'webhook')),
  event_key   text        NOT NULL CHECK (length(event_key) BETWEEN 1 AND 500),
  kind        text        NOT NULL,
  provider_message_id text,
  raw         text        NOT NULL,
  state       text        NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'applied', 'orphan', 'ignored')),
  received_at timestamptz NOT NULL DEFAULT now(),
  applied_at  timestamptz,
  UNIQUE (provider, event_key)
);
CREATE INDEX webhook_events_orphans_idx ON herald.webhook_events (received_at DESC) WHERE state = 'orphan';
CREATE INDEX webhook_events_message_idx ON herald.webhook_events (provider_message_id);
