-- Broadcasts: one send of a template to a segment. Fan-out only writes notification rows; the
-- engine's pump, gates and dispatcher do the rest, exactly as for events.

CREATE TABLE herald.broadcasts (
  id                  bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name                text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  status              text        NOT NULL DEFAULT 'draft'
                        CHECK (status IN ('draft', 'scheduled', 'sending', 'paused', 'sent', 'canceled')),
  segment_id          bigint      NOT NULL REFERENCES herald.segments (id) ON DELETE RESTRICT,
  -- The segment's rule tree as it was when sending started: later edits never change who got it.
  segment_rule        jsonb,
  template_key        text        NOT NULL REFERENCES herald.templates (key),
  -- [{ version, percent }]: one entry, or an A/B split summing to 100.
  variants            jsonb       NOT NULL CHECK (jsonb_typeof(variants) = 'array' AND jsonb_array_length(variants) BETWEEN 1 AND 5),
  channels            text[]      NOT NULL CHECK (cardinality(channels) BETWEEN 1 AND 3 AND channels <@ ARRAY['push', 'email', 'sms']),
  category            text        NOT NULL REFERENCES herald.categories (key),
  lane                text        NOT NULL DEFAULT 'bulk' CHECK (lane IN ('critical', 'bulk')),
  holdout_percent     numeric(4, 1) NOT NULL DEFAULT 0 CHECK (holdout_percent BETWEEN 0 AND 50),
  throttle_per_minute integer     CHECK (throttle_per_minute > 0),
  data                jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(data) = 'object'),
  -- { kind: "now" } | { kind: "at", at, timezone } | { kind: "local", localDateTime }
  schedule            jsonb,
  -- When the start_broadcast job runs: the instant, or for local-time schedules the earliest
  -- zone's (every row then gets its own next_attempt_at).
  starts_at           timestamptz,
  -- Fan-out progress: users are taken in id order, in chunks; a re-run resumes here.
  fanout_after_user   bigint      NOT NULL DEFAULT 0,
  targeted            integer     NOT NULL DEFAULT 0,
  held_out            integer     NOT NULL DEFAULT 0,
  fanout_done_at      timestamptz,
  pause_reason        text,
  created_by          bigint      REFERENCES herald.members (id) ON DELETE SET NULL,
  updated_by          bigint      REFERENCES herald.members (id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  started_at          timestamptz,
  finished_at         timestamptz
);
CREATE INDEX broadcasts_status_idx ON herald.broadcasts (status, created_at DESC);

-- The holdout: users who matched but were deliberately not sent anything, for measuring lift.
-- Not notifications: nothing about them is pending, gated or retried.
CREATE TABLE herald.broadcast_holdouts (
  broadcast_id bigint NOT NULL REFERENCES herald.broadcasts (id) ON DELETE CASCADE,
  user_id      bigint NOT NULL REFERENCES herald.users (id) ON DELETE CASCADE,
  PRIMARY KEY (broadcast_id, user_id)
);

ALTER TABLE herald.notifications ADD COLUMN broadcast_id bigint REFERENCES herald.broadcasts (id) ON DELETE SET NULL;
-- Progress, pause, resume and cancel all read one broadcast's rows.
CREATE INDEX notifications_broadcast_idx ON herald.notifications (broadcast_id, channel, status) WHERE broadcast_id IS NOT NULL;

-- A user's share of a broadcast, 0..9999, from md5 (stable across Postgres versions and
-- processes): the same user always lands in the same holdout and variant for a broadcast.
CREATE FUNCTION herald.broadcast_bucket(p_broadcast_id bigint, p_salt text, p_user_id bigint) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (('x' || substr(md5(p_broadcast_id::text || ':' || p_salt || ':' || p_user_id::text), 1, 8))::bit(32)::bigint % 10000)::integer
$$;
