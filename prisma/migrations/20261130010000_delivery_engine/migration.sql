-- The delivery engine: routing config, the outbox pump's index, send-time gates, provider
-- pacing and breakers, worker heartbeats, the sandbox outbox, and the SQL functions every caller
-- shares (REST ingest, herald.emit, dispatch, dry runs and Explain).

-- ── Configuration ───────────────────────────────────────────────────────────────────────────

-- { max, windowSeconds, action: defer | skip } per (user, category, channel); null = no cap.
ALTER TABLE herald.categories ADD COLUMN frequency_cap jsonb
  CHECK (frequency_cap IS NULL OR jsonb_typeof(frequency_cap) = 'object');

-- Event type → channel steps [{ channel, category, lane, template?, content? }], validated by
-- the API before it is stored. A change applies to events received afterwards.
CREATE TABLE herald.notification_types (
  type       text        PRIMARY KEY CHECK (type ~ '^[a-z][a-z0-9_.:-]{0,127}$'),
  channels   jsonb       NOT NULL CHECK (jsonb_typeof(channels) = 'array'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- User behaviour that segments read later (session_completed, …).
CREATE TABLE herald.activities (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id      bigint      NOT NULL REFERENCES herald.users (id) ON DELETE CASCADE,
  name         text        NOT NULL CHECK (name ~ '^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$'),
  -- The caller's own id, when given: a retried POST records the activity once.
  activity_key text,
  properties   jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(properties) = 'object'),
  occurred_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, activity_key)
);
CREATE INDEX activities_user_name_idx ON herald.activities (user_id, name, occurred_at DESC);

-- ── Notifications: what the pump and the retry machinery need ─────────────────────────────

ALTER TABLE herald.notifications
  -- Set when the pump turned the row into a graphile-worker job (in the same transaction);
  -- cleared whenever the row needs a new job (retry, deferral, resume).
  ADD COLUMN job_queued_at  timestamptz,
  ADD COLUMN deferred_since timestamptz,
  -- First deferral for a provider outage: past outageMaxAge the row is dead-lettered.
  ADD COLUMN outage_since   timestamptz,
  -- The content as sent (rendered), for the timeline and support.
  ADD COLUMN rendered       jsonb,
  -- The graphile-worker job that has the row in flight: a re-run of that job (after its worker
  -- died) may take the row again, another job never can.
  ADD COLUMN in_flight_job  bigint;

-- The pump reads only rows waiting for a job, per channel and lane, oldest due first.
DROP INDEX herald.notifications_in_dispatch_idx;
CREATE INDEX notifications_pump_idx ON herald.notifications (channel, lane, next_attempt_at)
  WHERE job_queued_at IS NULL AND dispatch_state IN ('queued', 'retry_wait', 'deferred');
-- Dead letters, listed by the dashboard and replayed in bulk.
CREATE INDEX notifications_dead_idx ON herald.notifications (updated_at DESC, id DESC) WHERE status = 'dead';
-- Stuck rows (a job lost with its worker) found by the reaper.
CREATE INDEX notifications_in_flight_idx ON herald.notifications (updated_at)
  WHERE dispatch_state = 'in_flight' OR (job_queued_at IS NOT NULL AND dispatch_state <> 'done');

-- ── Providers: pacing, breakers, the sandbox outbox ───────────────────────────────────────

-- A token bucket per provider, shared by every worker process. Taken per batch, not per send.
CREATE TABLE herald.provider_buckets (
  provider        text             PRIMARY KEY,
  rate_per_second double precision NOT NULL CHECK (rate_per_second > 0),
  burst           double precision NOT NULL CHECK (burst >= 1),
  tokens          double precision NOT NULL,
  refilled_at     timestamptz      NOT NULL DEFAULT clock_timestamp()
);

-- Circuit breakers, keyed by provider (and platform for push). Written on transitions only.
CREATE TABLE herald.provider_breakers (
  breaker_key          text        PRIMARY KEY,
  state                text        NOT NULL CHECK (state IN ('closed', 'open', 'half_open')),
  consecutive_failures integer     NOT NULL DEFAULT 0,
  opened_at            timestamptz,
  reason               text,
  updated_at           timestamptz NOT NULL DEFAULT now()
);

-- Every process that runs workers says it is alive; the reaper frees the jobs of the silent.
CREATE TABLE herald.worker_heartbeats (
  worker_id    text        PRIMARY KEY,
  pool_ids     text[]      NOT NULL DEFAULT '{}',
  hostname     text        NOT NULL,
  pid          integer     NOT NULL,
  started_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now()
);

-- What the sandbox provider "sent": shown in the dashboard and at /api/v1/sandbox/messages.
CREATE TABLE herald.sandbox_messages (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  notification_id     bigint      REFERENCES herald.notifications (id) ON DELETE SET NULL,
  provider_message_id text        NOT NULL UNIQUE,
  channel             text        NOT NULL CHECK (channel IN ('push', 'email', 'sms')),
  recipient           text        NOT NULL,
  subject             text,
  title               text,
  body                text        NOT NULL,
  headers             jsonb,
  data                jsonb,
  created_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_messages_recipient_idx ON herald.sandbox_messages (recipient, created_at DESC);
CREATE INDEX sandbox_messages_created_idx ON herald.sandbox_messages (created_at DESC, id DESC);

-- ── Time zones Postgres knows ──────────────────────────────────────────────────────────────
-- The gates compute local times in SQL: a zone Postgres cannot read would fail a whole batch,
-- so one never gets stored. (Declared immutable for the CHECK; the zone database changes only
-- with a Postgres upgrade.)
CREATE FUNCTION herald.is_time_zone(p_tz text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  PERFORM now() AT TIME ZONE p_tz;
  RETURN true;
EXCEPTION WHEN invalid_parameter_value THEN
  RETURN false;
END $$;

ALTER TABLE herald.users ADD CONSTRAINT users_timezone_check CHECK (timezone IS NULL OR herald.is_time_zone(timezone));
ALTER TABLE herald.quiet_hours ADD CONSTRAINT quiet_hours_timezone_check CHECK (timezone IS NULL OR herald.is_time_zone(timezone));

-- ── Status ranks: the one table, mirrored from packages/core (a test compares them) ─────────

CREATE FUNCTION herald.status_rank(p_status text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE p_status
    WHEN 'pending' THEN 0 WHEN 'sent' THEN 1
    WHEN 'delivered' THEN 2 WHEN 'failed' THEN 2 WHEN 'bounced' THEN 2
    WHEN 'skipped' THEN 9 WHEN 'dead' THEN 9 WHEN 'canceled' THEN 9
  END
$$;

-- ── Local wall time → instant ──────────────────────────────────────────────────────────────
-- The first instant at which the wall clock of p_tz reads p_local: in a spring-forward gap the
-- moment the gap ends, for a fall-back time that occurs twice the first occurrence. (Postgres's
-- own AT TIME ZONE picks the standard-time reading in both cases.) Mirrors quietWindowEnd in
-- packages/core; a property test compares the two.
CREATE FUNCTION herald.local_to_instant(p_local timestamp, p_tz text) RETURNS timestamptz
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  base timestamptz := p_local AT TIME ZONE 'UTC';
  t_a  timestamptz;
  t_b  timestamptz;
  lo   timestamptz;
  hi   timestamptz;
  mid  timestamptz;
BEGIN
  t_a := base - (((base - interval '1 day') AT TIME ZONE p_tz) - ((base - interval '1 day') AT TIME ZONE 'UTC'));
  t_b := base - (((base + interval '1 day') AT TIME ZONE p_tz) - ((base + interval '1 day') AT TIME ZONE 'UTC'));
  IF (t_a AT TIME ZONE p_tz) = p_local AND (t_b AT TIME ZONE p_tz) = p_local THEN
    RETURN least(t_a, t_b);
  ELSIF (t_a AT TIME ZONE p_tz) = p_local THEN
    RETURN t_a;
  ELSIF (t_b AT TIME ZONE p_tz) = p_local THEN
    RETURN t_b;
  END IF;
  -- A gap: between the two readings the wall clock only moves forward, so bisect to the second.
  lo := least(t_a, t_b);
  hi := greatest(t_a, t_b);
  WHILE hi - lo > interval '1 second' LOOP
    mid := lo + (hi - lo) / 2;
    IF (mid AT TIME ZONE p_tz) >= p_local THEN hi := mid; ELSE lo := mid; END IF;
  END LOOP;
  RETURN date_trunc('second', hi);
END $$;

-- ── Ingest: routing, dedup and pinning, one implementation for every caller ───────────────
-- p_events: [{ eventId, type, userId, occurredAt?, data? }], already validated by the caller
-- (the REST API, or herald.emit). One row out per created, replayed or refused event; created
-- and replayed events list their notifications, one row each.

CREATE FUNCTION herald.ingest_events(p_events jsonb)
RETURNS TABLE (ord integer, event_id text, outcome text, notification_id bigint, channel text, status text)
LANGUAGE plpgsql
-- The planner guesses 100 rows for jsonb_array_elements whatever the batch holds, and for a
-- one-event call it then hashes whole tables (users, events). Per-key index lookups are right
-- for one event and still cheap for a thousand.
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $$
#variable_conflict use_column
DECLARE
  new_events bigint[];
BEGIN
  -- Users first, in their own statement: a user another transaction just created is visible
  -- to the statements below (read committed takes a new snapshot per statement).
  INSERT INTO herald.users (external_id)
  SELECT DISTINCT e->>'userId'
    FROM jsonb_array_elements(p_events) e
   WHERE EXISTS (SELECT 1 FROM herald.notification_types t WHERE t.type = e->>'type')
     AND NOT EXISTS (SELECT 1 FROM herald.users u WHERE u.external_id = e->>'userId')
  ON CONFLICT (external_id) DO NOTHING;

  -- Events, their notifications and their "created" log rows in one statement. Within a batch
  -- the first occurrence of an (event, user) wins; later ones are answered as replays below.
  WITH input AS (
    SELECT x.ord, x.e->>'eventId' AS event_id, u.id AS user_id, u.locale, x.e->>'type' AS type,
           (x.e->>'occurredAt')::timestamptz AS occurred_at, coalesce(x.e->'data', '{}'::jsonb) AS data,
           encode(sha256(convert_to(concat_ws(chr(31), x.e->>'type', x.e->>'occurredAt', coalesce(x.e->'data', '{}'::jsonb)::text), 'UTF8')), 'hex') AS hash
      FROM jsonb_array_elements(p_events) WITH ORDINALITY x(e, ord)
      JOIN herald.users u ON u.external_id = x.e->>'userId'
     WHERE EXISTS (SELECT 1 FROM herald.notification_types t WHERE t.type = x.e->>'type')
  ), first_occurrence AS (
    SELECT DISTINCT ON (i.event_id, i.user_id) i.* FROM input i ORDER BY i.event_id, i.user_id, i.ord
  ), inserted AS (
    INSERT INTO herald.events (event_id, user_id, type, payload_hash, occurred_at)
    SELECT f.event_id, f.user_id, f.type, f.hash, coalesce(f.occurred_at, now()) FROM first_occurrence f
    ON CONFLICT ON CONSTRAINT events_event_id_user_id_key DO NOTHING
    RETURNING id, event_id, user_id
  ), routed AS (
    -- Routing is frozen here: the type's channel steps as they are now.
    SELECT ins.id, ins.event_id, ins.user_id, f.type, f.locale, f.data, step.value AS step
      FROM inserted ins
      JOIN first_occurrence f ON f.event_id = ins.event_id AND f.user_id = ins.user_id
      JOIN herald.notification_types nt ON nt.type = f.type
      CROSS JOIN LATERAL jsonb_array_elements(nt.channels) step
  ), created AS (
    INSERT INTO herald.notifications
      (dedup_key, event_ref, user_id, type, channel, category, lane, template_key, content, locale, vars)
    SELECT r.event_id || ':' || r.user_id || ':' || (r.step->>'channel'),
           r.id, r.user_id, r.type, r.step->>'channel',
           coalesce((SELECT a.category_key FROM herald.category_aliases a WHERE a.alias = r.step->>'category'), r.step->>'category'),
           coalesce(r.step->>'lane', 'bulk'), r.step->>'template', r.step->'content', r.locale, r.data
      FROM routed r
    ON CONFLICT (dedup_key) DO NOTHING
    RETURNING id, event_ref
  ), logged AS (
    INSERT INTO herald.notification_events (notification_id, type, detail)
    SELECT c.id, 'created', jsonb_build_object('eventRef', c.event_ref) FROM created c
  )
  SELECT coalesce(array_agg(ins.id), '{}') INTO new_events FROM inserted ins;

  RETURN QUERY
  WITH input AS (
    SELECT x.ord::integer AS ord, x.e->>'eventId' AS event_id, x.e->>'type' AS type, x.e->>'userId' AS ext_user,
           encode(sha256(convert_to(concat_ws(chr(31), x.e->>'type', x.e->>'occurredAt', coalesce(x.e->'data', '{}'::jsonb)::text), 'UTF8')), 'hex') AS hash
      FROM jsonb_array_elements(p_events) WITH ORDINALITY x(e, ord)
  ), resolved AS (
    SELECT i.*, ev.id AS event_ref, ev.payload_hash,
           EXISTS (SELECT 1 FROM herald.notification_types t WHERE t.type = i.type) AS known_type,
           -- Within one batch the first occurrence of an event creates it; later ones replay it.
           ev.id = ANY (new_events) AND i.ord = min(i.ord) OVER (PARTITION BY i.event_id, i.ext_user) AS is_new
      FROM input i
      LEFT JOIN herald.users u ON u.external_id = i.ext_user
      LEFT JOIN herald.events ev ON ev.event_id = i.event_id AND ev.user_id = u.id
  )
  SELECT r.ord, r.event_id,
         CASE WHEN NOT r.known_type OR r.event_ref IS NULL THEN 'unknown_type'
              WHEN r.payload_hash <> r.hash THEN 'conflict'
              WHEN r.is_new THEN 'created'
              ELSE 'replay' END,
         n.id, n.channel, n.status
    FROM resolved r
    LEFT JOIN herald.notifications n ON n.event_ref = r.event_ref AND r.known_type AND r.payload_hash = r.hash
   ORDER BY r.ord, n.id;
END $$;

-- For business code sharing this Postgres: call inside your own transaction, and the
-- notifications exist if and only if your transaction commits (the transactional outbox).
CREATE FUNCTION herald.emit(p_event_id text, p_type text, p_user_id text, p_data jsonb DEFAULT '{}'::jsonb,
                            p_occurred_at timestamptz DEFAULT NULL)
RETURNS TABLE (notification_id bigint, channel text)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  r record;
BEGIN
  IF p_event_id IS NULL OR length(p_event_id) NOT BETWEEN 1 AND 256 THEN
    RAISE EXCEPTION 'herald.emit: event id must be 1 to 256 characters' USING ERRCODE = '22023';
  END IF;
  IF p_user_id IS NULL OR length(p_user_id) NOT BETWEEN 1 AND 256 THEN
    RAISE EXCEPTION 'herald.emit: user id must be 1 to 256 characters' USING ERRCODE = '22023';
  END IF;
  IF p_data IS NOT NULL AND jsonb_typeof(p_data) <> 'object' THEN
    RAISE EXCEPTION 'herald.emit: data must be a JSON object' USING ERRCODE = '22023';
  END IF;
  FOR r IN SELECT * FROM herald.ingest_events(jsonb_build_array(jsonb_strip_nulls(jsonb_build_object(
      'eventId', p_event_id, 'type', p_type, 'userId', p_user_id, 'data', coalesce(p_data, '{}'::jsonb),
      'occurredAt', to_jsonb(p_occurred_at))))) LOOP
    IF r.outcome = 'unknown_type' THEN
      RAISE EXCEPTION 'herald.emit: unknown notification type "%"', p_type USING ERRCODE = '22023';
    ELSIF r.outcome = 'conflict' THEN
      RAISE EXCEPTION 'herald.emit: event "%" for user "%" was already received with another payload', p_event_id, p_user_id
        USING ERRCODE = '23505';
    ELSIF r.notification_id IS NOT NULL THEN
      notification_id := r.notification_id;
      channel := r.channel;
      RETURN NEXT;
    END IF;
  END LOOP;
END $$;

-- ── Gates at send time: one set-based function for sends, dry runs and Explain ─────────────
-- In order: preference (category disabled; mandatory categories ignore opt-outs) → suppression →
-- reachability → quiet hours (deferred to the window's end; the critical lane bypasses) →
-- frequency cap (deferred or skipped, as the category says). One row per input tuple.

CREATE FUNCTION herald.evaluate_gates(
  p_user_ids bigint[], p_channels text[], p_categories text[], p_lanes text[],
  p_now timestamptz, p_default_timezone text
)
RETURNS TABLE (ord integer, verdict text, reason text, defer_until timestamptz, address text, tokens text[], detail jsonb)
LANGUAGE sql STABLE AS $$
  WITH t AS (
    SELECT x.ord::integer AS ord, x.user_id, x.channel, x.lane,
           coalesce(a.category_key, x.category) AS category
      FROM unnest(p_user_ids, p_channels, p_categories, p_lanes) WITH ORDINALITY AS x(user_id, channel, category, lane, ord)
      LEFT JOIN herald.category_aliases a ON a.alias = x.category
  ), facts AS (
    SELECT t.*, u.id IS NOT NULL AS user_exists,
           coalesce(c.mandatory, false) AS mandatory,
           c.frequency_cap,
           coalesce((c.defaults ->> t.channel)::boolean, true) AS default_enabled,
           p.enabled AS pref_enabled, p.source AS pref_source, p.changed_at AS pref_changed_at,
           CASE t.channel WHEN 'email' THEN u.email WHEN 'sms' THEN u.phone END AS addr,
           s.reason AS suppression_reason, s.source AS suppression_source, s.created_at AS suppressed_at,
           dev.tokens, dev.suppressed_reason AS token_suppression,
           qh.start_time, qh.end_time, coalesce(qh.timezone, u.timezone, p_default_timezone) AS tz
      FROM t
      LEFT JOIN herald.users u ON u.id = t.user_id
      LEFT JOIN herald.categories c ON c.key = t.category
      LEFT JOIN herald.preferences p ON p.user_id = t.user_id AND p.category = t.category AND p.channel = t.channel
      LEFT JOIN herald.suppressions s ON t.channel <> 'push' AND s.channel = t.channel
             AND s.address = CASE t.channel WHEN 'email' THEN u.email WHEN 'sms' THEN u.phone END
      LEFT JOIN LATERAL (
        SELECT array_agg(d.token ORDER BY d.id) FILTER (WHERE ds.address IS NULL) AS tokens,
               min(ds.reason) AS suppressed_reason
          FROM herald.devices d
          LEFT JOIN herald.suppressions ds ON ds.channel = 'push' AND ds.address = d.token
         WHERE t.channel = 'push' AND d.user_id = t.user_id AND d.active
      ) dev ON true
      LEFT JOIN LATERAL (
        SELECT q.start_time, q.end_time, q.timezone
          FROM herald.quiet_hours q
         WHERE q.user_id = t.user_id AND q.category IN (t.category, '*') AND q.channel IN (t.channel, '*')
         ORDER BY (q.category <> '*') DESC, (q.channel <> '*') DESC
         LIMIT 1
      ) qh ON true
  ), quiet AS (
    SELECT f.*, (p_now AT TIME ZONE f.tz) AS local_now
      FROM facts f
  ), windows AS (
    SELECT q.*,
           q.start_time IS NOT NULL AND q.lane <> 'critical' AND CASE
             WHEN q.start_time < q.end_time THEN q.local_now::time >= q.start_time AND q.local_now::time < q.end_time
             ELSE q.local_now::time >= q.start_time OR q.local_now::time < q.end_time
           END AS in_quiet
      FROM quiet q
  ), capped AS (
    SELECT w.*, cap.sent_in_window, cap.oldest_in_window
      FROM windows w
      LEFT JOIN LATERAL (
        SELECT count(*) AS sent_in_window, min(n.sent_at) AS oldest_in_window
          FROM herald.notifications n
         WHERE w.frequency_cap IS NOT NULL AND n.user_id = w.user_id AND n.category = w.category
           AND n.channel = w.channel AND n.sent_at > p_now - make_interval(secs => (w.frequency_cap->>'windowSeconds')::int)
      ) cap ON true
  ), decided AS (
    SELECT c.*,
      CASE
        WHEN NOT c.user_exists THEN 'unreachable:' || CASE c.channel WHEN 'push' THEN 'device' WHEN 'email' THEN 'email' ELSE 'phone' END
        WHEN NOT (c.mandatory OR coalesce(c.pref_enabled, c.default_enabled)) THEN 'category_disabled'
        WHEN c.suppression_reason IS NOT NULL THEN 'suppressed:' || c.suppression_reason
        WHEN c.channel = 'push' AND coalesce(cardinality(c.tokens), 0) = 0 AND c.token_suppression IS NOT NULL
          THEN 'suppressed:' || c.token_suppression
        WHEN c.channel = 'push' AND coalesce(cardinality(c.tokens), 0) = 0 THEN 'unreachable:device'
        WHEN c.channel = 'email' AND c.addr IS NULL THEN 'unreachable:email'
        WHEN c.channel = 'sms' AND c.addr IS NULL THEN 'unreachable:phone'
        WHEN c.in_quiet THEN 'quiet_hours'
        WHEN c.frequency_cap IS NOT NULL AND c.sent_in_window >= (c.frequency_cap->>'max')::int THEN 'frequency_capped'
      END AS reason
      FROM capped c
  )
  SELECT d.ord,
         CASE WHEN d.reason IS NULL THEN 'send'
              WHEN d.reason = 'quiet_hours' THEN 'defer'
              WHEN d.reason = 'frequency_capped' AND d.frequency_cap->>'action' = 'defer' THEN 'defer'
              ELSE 'skip' END,
         d.reason,
         CASE
           -- On a fall-back night the end time may occur twice: the first occurrence unless it has
           -- passed already (then the second, which is Postgres's own reading).
           WHEN d.reason = 'quiet_hours' THEN (
             SELECT CASE WHEN herald.local_to_instant(w.wall, d.tz) > p_now THEN herald.local_to_instant(w.wall, d.tz)
                         ELSE w.wall AT TIME ZONE d.tz END
               FROM (SELECT (d.local_now::date + CASE WHEN d.start_time > d.end_time AND d.local_now::time >= d.start_time
                                                      THEN 1 ELSE 0 END) + d.end_time AS wall) w)
           WHEN d.reason = 'frequency_capped' AND d.frequency_cap->>'action' = 'defer'
             THEN d.oldest_in_window + make_interval(secs => (d.frequency_cap->>'windowSeconds')::int)
         END,
         d.addr,
         d.tokens,
         jsonb_strip_nulls(jsonb_build_object(
           'category', d.category, 'mandatory', d.mandatory, 'defaultEnabled', d.default_enabled,
           'preference', CASE WHEN d.pref_enabled IS NOT NULL THEN jsonb_build_object(
             'enabled', d.pref_enabled, 'source', d.pref_source, 'changedAt', d.pref_changed_at) END,
           'suppression', CASE WHEN d.suppression_reason IS NOT NULL THEN jsonb_build_object(
             'reason', d.suppression_reason, 'source', d.suppression_source, 'at', d.suppressed_at) END,
           'quietHours', CASE WHEN d.start_time IS NOT NULL THEN jsonb_build_object(
             'start', to_char(d.start_time, 'HH24:MI'), 'end', to_char(d.end_time, 'HH24:MI'), 'timezone', d.tz) END,
           'sentInWindow', CASE WHEN d.frequency_cap IS NOT NULL THEN d.sent_in_window END
         ))
    FROM decided d
   ORDER BY d.ord
$$;

-- ── Provider pacing ────────────────────────────────────────────────────────────────────────
-- Grants up to p_wanted tokens at once (one row update per batch, whatever the batch size) and
-- says how long until the next token when it grants fewer.
CREATE FUNCTION herald.take_tokens(p_provider text, p_wanted integer)
RETURNS TABLE (granted integer, wait_ms integer)
LANGUAGE sql AS $$
  WITH current AS (
    SELECT b.provider, b.rate_per_second,
           least(b.burst, b.tokens + extract(epoch FROM clock_timestamp() - b.refilled_at) * b.rate_per_second) AS available
      FROM herald.provider_buckets b
     WHERE b.provider = p_provider
       FOR UPDATE
  ), taken AS (
    UPDATE herald.provider_buckets b
       SET tokens = c.available - least(p_wanted, floor(c.available)::integer),
           refilled_at = clock_timestamp()
      FROM current c
     WHERE b.provider = c.provider
    RETURNING least(p_wanted, floor(c.available)::integer) AS granted, c.available, c.rate_per_second
  )
  SELECT t.granted,
         CASE WHEN t.granted < p_wanted
              THEN ceil((1 - (t.available - t.granted)) / t.rate_per_second * 1000)::integer
              ELSE 0 END
    FROM taken t
$$;

-- ── The outbox pump ────────────────────────────────────────────────────────────────────────
-- Turns rows that are due (or due within p_lookahead) into graphile-worker jobs of up to
-- p_batch_size notifications, critical lane first, with one add_jobs call per channel and
-- lane, in the same transaction that marks the rows: a row has a job if and only if
-- job_queued_at is set. A lane whose queue already holds p_max_queued_batches jobs nobody has
-- started gets no more: rows wait as rows (cheap, and re-ordered by the gates at send time)
-- rather than as a deep queue of jobs.
CREATE FUNCTION herald.pump(p_batch_size integer, p_max_queued_batches integer, p_lookahead interval)
RETURNS TABLE (channel text, lane text, notifications integer, jobs integer)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  ch text;
  ln text;
  waiting integer;
  room integer;
  claimed integer;
  added integer;
BEGIN
  FOREACH ch IN ARRAY ARRAY['push', 'email', 'sms'] LOOP
    FOREACH ln IN ARRAY ARRAY['critical', 'bulk'] LOOP
      -- Each lane has its own allowance of unstarted jobs, so a deep bulk queue never keeps a
      -- critical row from getting its job (graphile-worker then runs it first, by priority).
      SELECT count(*) INTO waiting FROM (
        SELECT 1 FROM graphile_worker._private_jobs j
          JOIN graphile_worker._private_tasks t ON t.id = j.task_id
         WHERE t.identifier = 'send_' || ch AND j.locked_at IS NULL AND j.run_at <= now() + p_lookahead
           AND j.priority = CASE ln WHEN 'critical' THEN -10 ELSE 0 END
         LIMIT p_max_queued_batches) x;
      room := (p_max_queued_batches - waiting) * p_batch_size;
      CONTINUE WHEN room <= 0;
      WITH due AS (
        SELECT n.id, greatest(n.next_attempt_at, now()) AS run_at
          FROM herald.notifications n
         WHERE n.channel = ch AND n.lane = ln AND n.job_queued_at IS NULL
           AND n.dispatch_state IN ('queued', 'retry_wait', 'deferred')
           AND n.next_attempt_at <= now() + p_lookahead
         ORDER BY n.next_attempt_at
         LIMIT room
           FOR UPDATE SKIP LOCKED
      ), marked AS (
        UPDATE herald.notifications n SET job_queued_at = now()
          FROM due WHERE n.id = due.id
        RETURNING n.id, due.run_at
      ), numbered AS (
        -- Rows due in the same second share jobs; a job never holds more than p_batch_size.
        SELECT m.id, date_trunc('second', m.run_at) AS run_at,
               (row_number() OVER (PARTITION BY date_trunc('second', m.run_at) ORDER BY m.id) - 1) / p_batch_size AS chunk
          FROM marked m
      ), specs AS (
        SELECT ('send_' || ch, json_build_object('ids', json_agg(nb.id::text ORDER BY nb.id)), NULL, nb.run_at, 25, NULL,
                CASE ln WHEN 'critical' THEN -10 ELSE 0 END, NULL)::graphile_worker.job_spec AS spec,
               count(*) AS n
          FROM numbered nb
         GROUP BY nb.run_at, nb.chunk
      ), enqueued AS (
        SELECT count(*) AS jobs FROM graphile_worker.add_jobs((SELECT array_agg(s.spec) FROM specs s))
      )
      SELECT coalesce((SELECT sum(s.n) FROM specs s), 0), (SELECT e.jobs FROM enqueued e) INTO claimed, added;
      IF claimed > 0 THEN
        channel := ch;
        lane := ln;
        notifications := claimed;
        jobs := added;
        RETURN NEXT;
      END IF;
    END LOOP;
  END LOOP;
END $$;
