-- Analytics rollups (decision 0011): daily counters per notification type, channel, template
-- version and broadcast, kept current from the append-only notification_events log by the
-- roll_up_analytics task and rebuildable from it by `pnpm herald analytics:rebuild`.

-- Absent dimensions are '' / 0 rather than NULL so that they can be part of the primary key.
CREATE TABLE herald.analytics_daily (
  day              date    NOT NULL,
  type             text    NOT NULL,
  channel          text    NOT NULL,
  template_key     text    NOT NULL DEFAULT '',
  template_version integer NOT NULL DEFAULT 0,
  broadcast_id     bigint  NOT NULL DEFAULT 0,
  created          bigint  NOT NULL DEFAULT 0,
  skipped          bigint  NOT NULL DEFAULT 0,
  sent             bigint  NOT NULL DEFAULT 0,
  delivered        bigint  NOT NULL DEFAULT 0,
  failed           bigint  NOT NULL DEFAULT 0,
  bounced          bigint  NOT NULL DEFAULT 0,
  dead             bigint  NOT NULL DEFAULT 0,
  canceled         bigint  NOT NULL DEFAULT 0,
  opened           bigint  NOT NULL DEFAULT 0,
  opened_by_proxy  bigint  NOT NULL DEFAULT 0,
  clicked          bigint  NOT NULL DEFAULT 0,
  read             bigint  NOT NULL DEFAULT 0,
  unsubscribed     bigint  NOT NULL DEFAULT 0,
  complained       bigint  NOT NULL DEFAULT 0,
  PRIMARY KEY (day, type, channel, template_key, template_version, broadcast_id)
);
CREATE INDEX analytics_daily_broadcast_idx ON herald.analytics_daily (broadcast_id, day);

CREATE TABLE herald.analytics_daily_skips (
  day              date    NOT NULL,
  type             text    NOT NULL,
  channel          text    NOT NULL,
  template_key     text    NOT NULL DEFAULT '',
  template_version integer NOT NULL DEFAULT 0,
  broadcast_id     bigint  NOT NULL DEFAULT 0,
  reason           text    NOT NULL,
  skipped          bigint  NOT NULL DEFAULT 0,
  PRIMARY KEY (day, type, channel, template_key, template_version, broadcast_id, reason)
);

-- One row: how far the rollup has read the event log. last_event_id moves in the same
-- transaction as the increments it stands for, so a task that runs twice or dies midway never
-- counts an event twice. built_at is NULL until the first (set-based) build.
CREATE TABLE herald.analytics_state (
  id            integer     PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  last_event_id bigint      NOT NULL DEFAULT 0,
  time_zone     text        NOT NULL DEFAULT 'UTC' CHECK (herald.is_time_zone(time_zone)),
  built_at      timestamptz,
  rolled_up_at  timestamptz
);
-- An empty log is already rolled up (in UTC, the workspace default); a database with history is
-- built by the first task run.
INSERT INTO herald.analytics_state (id, built_at)
SELECT 1, CASE WHEN NOT EXISTS (SELECT 1 FROM herald.notification_events) THEN now() END;

-- Event ids at or below last_event_id that were not visible when it moved past them: identity
-- values are handed out at insert time but committed in any order, so a slow transaction's event
-- can appear after a later one was rolled up. Each run looks these up again, until they appear
-- or grow older than the horizon (a rolled-back insert never will).
CREATE TABLE herald.analytics_gaps (
  event_id bigint      PRIMARY KEY,
  seen_at  timestamptz NOT NULL DEFAULT now()
);

-- Which counter an event feeds (besides `created`, which every notification's first event
-- feeds, and `dead`, which a replay takes back). An open fetched ahead of the reader by a
-- privacy proxy (Apple Mail Privacy Protection, Gmail's prefetch) is not a human open.
CREATE FUNCTION herald.analytics_metric(p_type text, p_detail jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN p_type = 'opened' AND p_detail ->> 'prefetch' = 'true' THEN 'opened_by_proxy'
    WHEN p_type = 'complaint' THEN 'complained'
    WHEN p_type IN ('skipped', 'sent', 'delivered', 'failed', 'bounced', 'canceled', 'opened', 'clicked', 'read', 'unsubscribed')
      THEN p_type
  END
$$;
