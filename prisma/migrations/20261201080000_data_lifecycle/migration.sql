-- Data lifecycle: erased users' suppressions kept as hashes the gate still matches, and the
-- helpers the erase and retention code share (docs/data-lifecycle.md, decision 0014).

-- The key an erased person's suppression is kept under: the SHA-256 of the normalised address
-- (email lower-cased, every address trimmed), prefixed so it can never equal a real address.
-- One definition for the gate, the erase, the support views and CSV import.
CREATE FUNCTION herald.suppression_hash(p_channel text, p_address text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT 'sha256:' || encode(sha256(convert_to(
    CASE p_channel WHEN 'email' THEN lower(btrim(p_address)) ELSE btrim(p_address) END, 'UTF8')), 'hex')
$$;

-- Replaces every occurrence of each of p_values in p_text, whatever its case, by [erased]: an
-- address inside a provider's diagnostic ("550 <ada@example.com> unknown") is found too.
CREATE FUNCTION herald.erase_values(p_text text, p_values text[]) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  v text;
  result text := p_text;
BEGIN
  IF result IS NULL THEN RETURN NULL; END IF;
  FOREACH v IN ARRAY coalesce(p_values, '{}'::text[]) LOOP
    CONTINUE WHEN v IS NULL OR v = '';
    result := regexp_replace(result, regexp_replace(v, '([.^$|?*+()\[\]{}\\])', '\\\1', 'g'), '[erased]', 'gi');
  END LOOP;
  RETURN result;
END $$;

-- The append-only guard as before, plus one escape: an erasure (herald.allow_erase, set for its
-- own transaction only) may rewrite a notification event's detail or an audit entry to cut a
-- person's addresses out. Retention's deletes still go through herald.allow_prune.
CREATE OR REPLACE FUNCTION herald.refuse_mutation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('herald.allow_prune', true) = 'on' THEN
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE' AND current_setting('herald.allow_erase', true) = 'on' THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;

-- The gates as before, but a suppression matches its address or that address's hash: an erased
-- person's suppression still stops a new user who signs up, or is imported, with the address.
-- Only the two suppression joins differ from 20261130010000_delivery_engine.
CREATE OR REPLACE FUNCTION herald.evaluate_gates(
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
      LEFT JOIN LATERAL (
        -- The address itself first: its reason and source are the ones support should read.
        SELECT s.reason, s.source, s.created_at
          FROM herald.suppressions s
         WHERE t.channel <> 'push' AND s.channel = t.channel
           AND s.address IN (CASE t.channel WHEN 'email' THEN u.email WHEN 'sms' THEN u.phone END,
                             herald.suppression_hash(t.channel, CASE t.channel WHEN 'email' THEN u.email WHEN 'sms' THEN u.phone END))
         ORDER BY s.address LIKE 'sha256:%'
         LIMIT 1
      ) s ON true
      LEFT JOIN LATERAL (
        SELECT array_agg(d.token ORDER BY d.id) FILTER (WHERE ds.address IS NULL) AS tokens,
               min(ds.reason) AS suppressed_reason
          FROM herald.devices d
          LEFT JOIN herald.suppressions ds ON ds.channel = 'push' AND ds.address IN (d.token, herald.suppression_hash('push', d.token))
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
