-- The delivery core's data model. Everything lives in the `herald` schema so that business code
-- sharing this Postgres (for herald.emit) never collides with our table names.
-- Enumerations are text + CHECK rather than CREATE TYPE: adding a value later is one ALTER of a
-- constraint inside a transaction, and the generated client sees plain strings.

CREATE SCHEMA IF NOT EXISTS herald;

-- ── Audience ────────────────────────────────────────────────────────────────────────────────

CREATE TABLE herald.users (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  external_id text        NOT NULL UNIQUE CHECK (length(external_id) BETWEEN 1 AND 256),
  email       text        CHECK (email IS NULL OR length(email) <= 320),
  phone       text        CHECK (phone IS NULL OR phone ~ '^\+[1-9][0-9]{6,14}$'),
  timezone    text,
  locale      text,
  attributes  jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(attributes) = 'object'),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE herald.devices (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id            bigint      NOT NULL REFERENCES herald.users (id) ON DELETE CASCADE,
  token              text        NOT NULL UNIQUE CHECK (length(token) BETWEEN 1 AND 4096),
  platform           text        NOT NULL CHECK (platform IN ('ios', 'android', 'web')),
  active             boolean     NOT NULL DEFAULT true,
  deactivated_reason text,
  deactivated_at     timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  CHECK (active OR deactivated_reason IS NOT NULL)
);
-- The gate reads "does this user have an active device": dead tokens cost nothing on that path.
CREATE INDEX devices_active_user_idx ON herald.devices (user_id) WHERE active;

-- ── Consent ─────────────────────────────────────────────────────────────────────────────────

CREATE TABLE herald.categories (
  key        text        PRIMARY KEY CHECK (key ~ '^[a-z][a-z0-9_.-]{0,63}$'),
  label      text        NOT NULL,
  mandatory  boolean     NOT NULL DEFAULT false,
  -- Per-channel default when a user has no preference row; an absent channel means true.
  defaults   jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(defaults) = 'object'),
  tracking   jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(tracking) = 'object'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- An alias resolves to exactly one category ("reminder" and "reminders" land on one row), so a
-- caller cannot slip past the gate with a plural.
CREATE TABLE herald.category_aliases (
  alias        text PRIMARY KEY CHECK (alias ~ '^[a-z][a-z0-9_.-]{0,63}$'),
  category_key text NOT NULL REFERENCES herald.categories (key) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX category_aliases_category_idx ON herald.category_aliases (category_key);

-- A missing row means the category's default: a new category never needs a backfill.
CREATE TABLE herald.preferences (
  user_id    bigint      NOT NULL REFERENCES herald.users (id) ON DELETE CASCADE,
  category   text        NOT NULL REFERENCES herald.categories (key) ON DELETE CASCADE ON UPDATE CASCADE,
  channel    text        NOT NULL CHECK (channel IN ('push', 'email', 'sms')),
  enabled    boolean     NOT NULL,
  source     text        NOT NULL CHECK (source IN ('api', 'unsubscribe_link', 'support', 'import', 'dashboard')),
  changed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, category, channel)
);

-- One row per user for the default window ('*', '*'), plus optional rows per (category, channel).
CREATE TABLE herald.quiet_hours (
  user_id    bigint      NOT NULL REFERENCES herald.users (id) ON DELETE CASCADE,
  category   text        NOT NULL DEFAULT '*',
  channel    text        NOT NULL DEFAULT '*' CHECK (channel IN ('*', 'push', 'email', 'sms')),
  start_time time        NOT NULL,
  end_time   time        NOT NULL,
  timezone   text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, category, channel),
  CHECK (start_time <> end_time)
);

-- What providers told us (hard bounce, complaint, STOP). Overrides every preference.
CREATE TABLE herald.suppressions (
  channel    text        NOT NULL CHECK (channel IN ('push', 'email', 'sms')),
  address    text        NOT NULL,
  reason     text        NOT NULL CHECK (reason IN ('hard_bounce', 'complaint', 'stop', 'invalid', 'manual', 'import')),
  source     text        NOT NULL,
  detail     jsonb       NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (channel, address)
);

-- ── Events and notifications ────────────────────────────────────────────────────────────────

CREATE TABLE herald.events (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id     text        NOT NULL CHECK (length(event_id) BETWEEN 1 AND 256),
  user_id      bigint      NOT NULL REFERENCES herald.users (id) ON DELETE CASCADE,
  type         text        NOT NULL,
  payload_hash text        NOT NULL,
  occurred_at  timestamptz NOT NULL,
  received_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, user_id)
);

CREATE TABLE herald.notifications (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- eventId:userId:channel. The whole dedup mechanism is this constraint.
  dedup_key           text        NOT NULL UNIQUE,
  event_ref           bigint      REFERENCES herald.events (id) ON DELETE SET NULL,
  user_id             bigint      REFERENCES herald.users (id) ON DELETE SET NULL,
  type                text        NOT NULL,
  channel             text        NOT NULL CHECK (channel IN ('push', 'email', 'sms')),
  category            text        NOT NULL,
  lane                text        NOT NULL DEFAULT 'bulk' CHECK (lane IN ('critical', 'bulk')),
  status              text        NOT NULL DEFAULT 'pending'
                        CHECK (status IN ('pending', 'sent', 'delivered', 'failed', 'bounced', 'skipped', 'dead', 'canceled')),
  reason              text,
  dispatch_state      text        NOT NULL DEFAULT 'queued'
                        CHECK (dispatch_state IN ('queued', 'in_flight', 'retry_wait', 'deferred', 'paused', 'done')),
  template_key        text,
  template_version    integer,
  content             jsonb,
  locale              text,
  vars                jsonb       NOT NULL DEFAULT '{}'::jsonb,
  address             text,
  attempt_count       integer     NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
  first_attempt_at    timestamptz,
  next_attempt_at     timestamptz NOT NULL DEFAULT now(),
  -- Time spent deferred (quiet hours, breaker, caps) is excluded from the max-age budget.
  deferred_ms         bigint      NOT NULL DEFAULT 0,
  last_error          text,
  provider            text,
  provider_message_id text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  sent_at             timestamptz,
  delivered_at        timestamptz,
  failed_at           timestamptz,
  opened_at           timestamptz,
  clicked_at          timestamptz,
  read_at             timestamptz,
  CHECK (template_key IS NOT NULL OR content IS NOT NULL)
);
CREATE INDEX notifications_user_timeline_idx ON herald.notifications (user_id, created_at DESC, id DESC);
CREATE INDEX notifications_provider_message_idx ON herald.notifications (provider_message_id);
CREATE INDEX notifications_event_idx ON herald.notifications (event_ref);
-- The pump and the reaper read only rows still in dispatch; settled rows pile up and cost nothing.
CREATE INDEX notifications_in_dispatch_idx ON herald.notifications (channel, lane, next_attempt_at)
  WHERE dispatch_state <> 'done';

-- Append-only: every step of a notification's life. Corrections are new rows, never updates.
CREATE TABLE herald.notification_events (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  notification_id bigint      NOT NULL REFERENCES herald.notifications (id) ON DELETE CASCADE,
  type            text        NOT NULL,
  at              timestamptz NOT NULL DEFAULT now(),
  detail          jsonb       NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX notification_events_notification_idx ON herald.notification_events (notification_id, at);

-- ── Dashboard accounts and access ───────────────────────────────────────────────────────────

CREATE TABLE herald.members (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email           text        NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) <= 320),
  name            text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  role            text        NOT NULL CHECK (role IN ('admin', 'marketer', 'support', 'operator', 'viewer')),
  password_hash   text        NOT NULL,
  disabled_at     timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz
);

CREATE TABLE herald.member_invites (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email       text        NOT NULL CHECK (email = lower(email)),
  role        text        NOT NULL CHECK (role IN ('admin', 'marketer', 'support', 'operator', 'viewer')),
  token_hash  text        NOT NULL UNIQUE,
  invited_by  bigint      REFERENCES herald.members (id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  accepted_at timestamptz,
  revoked_at  timestamptz
);

-- The cookie carries a random token; only its SHA-256 is stored, so a leaked table is no login.
CREATE TABLE herald.sessions (
  id           text        PRIMARY KEY,
  member_id    bigint      NOT NULL REFERENCES herald.members (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  user_agent   text,
  ip           text
);
CREATE INDEX sessions_member_idx ON herald.sessions (member_id);
CREATE INDEX sessions_expires_idx ON herald.sessions (expires_at);

CREATE TABLE herald.api_keys (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name            text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  prefix          text        NOT NULL UNIQUE,
  key_hash        text        NOT NULL UNIQUE,
  scope           text        NOT NULL CHECK (scope IN ('events', 'read', 'admin')),
  rate_per_minute integer     CHECK (rate_per_minute IS NULL OR rate_per_minute > 0),
  created_by      bigint      REFERENCES herald.members (id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_used_at    timestamptz,
  revoked_at      timestamptz
);

CREATE TABLE herald.audit_log (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at              timestamptz NOT NULL DEFAULT now(),
  actor_member_id bigint      REFERENCES herald.members (id) ON DELETE SET NULL,
  actor           text        NOT NULL,
  action          text        NOT NULL,
  target          text,
  detail          jsonb       NOT NULL DEFAULT '{}'::jsonb,
  ip              text
);
CREATE INDEX audit_log_at_idx ON herald.audit_log (at DESC, id DESC);
CREATE INDEX audit_log_actor_idx ON herald.audit_log (actor_member_id, at DESC);

CREATE TABLE herald.settings (
  key        text        PRIMARY KEY,
  value      jsonb       NOT NULL,
  updated_by bigint      REFERENCES herald.members (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Fixed-window counters shared by every process: sign-in throttling, per-key request rates.
CREATE TABLE herald.rate_counters (
  key          text        PRIMARY KEY,
  window_start timestamptz NOT NULL,
  count        integer     NOT NULL
);

-- ── Append-only guards ──────────────────────────────────────────────────────────────────────
-- The application role owns these tables, so REVOKE cannot bind it: a trigger does. Retention
-- (a later migration) deletes old notification events by setting herald.allow_prune in its own
-- transaction.

CREATE FUNCTION herald.refuse_mutation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('herald.allow_prune', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON herald.audit_log
  FOR EACH ROW EXECUTE FUNCTION herald.refuse_mutation();
CREATE TRIGGER notification_events_append_only BEFORE UPDATE OR DELETE ON herald.notification_events
  FOR EACH ROW EXECUTE FUNCTION herald.refuse_mutation();
