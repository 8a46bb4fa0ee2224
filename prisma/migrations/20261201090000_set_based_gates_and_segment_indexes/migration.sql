-- Segment counts and the broadcast dry run at a million users (issue 6 "Scale", decision 0015).

-- The suppression hash inlines again wherever it is called. It was IMMUTABLE and STRICT: STRICT
-- stops a SQL function whose body is not itself strict from being inlined, and convert_to is only
-- STABLE, which an IMMUTABLE function may not inline either. So every call was a function call
-- of its own (twice per recipient in the gates). Same value for every input, a NULL channel or
-- address included (NULL, as STRICT gave); no index is built on it, so STABLE costs nothing.
CREATE OR REPLACE FUNCTION herald.suppression_hash(p_channel text, p_address text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT 'sha256:' || encode(sha256(convert_to(
    CASE WHEN p_channel = 'email' THEN lower(btrim(p_address)) WHEN p_channel IS NOT NULL THEN btrim(p_address) END, 'UTF8')), 'hex')
$$;

-- The gates, same inputs, same answers, written as joins the planner can run either way: for a
-- batch of a few hundred tuples (the pump) it probes each table by index as before; for a whole
-- audience (the dry run, which plans it with the arrays' real length) it hashes. The previous
-- body read suppressions, devices and quiet hours through LATERAL … LIMIT 1 subqueries, which
-- can only run as one probe per tuple: a million recipients took a minute. What changed:
--   * a suppression is two equality joins (the address, then its hash) instead of IN (…), which
--     no hash join can use; (channel, address) is the key, so each finds at most one row, and
--     the address itself still wins over its hash;
--   * a push tuple's devices are joined and grouped per tuple (a device matches at most one
--     plain and one hashed suppression, so grouping sees each device once); the ladder reads
--     how many tokens are usable, so a caller that does not ask for the tokens (the dry run)
--     lets the planner drop their ordered aggregate, a sort per recipient;
--   * the quiet-hours rule is the most specific of the at most four a tuple can match, chosen
--     by DISTINCT ON over a join (the key (user, category, channel) leaves no ties);
--   * the frequency-cap count is grouped over a join, only for tuples whose category has a cap.
-- The reason ladder, the defer instant and the detail are unchanged from 20261201080000.
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
  ), dev AS (
    SELECT t.ord,
           array_agg(d.token ORDER BY d.id) FILTER (WHERE ds.address IS NULL AND dh.address IS NULL) AS tokens,
           count(*) FILTER (WHERE ds.address IS NULL AND dh.address IS NULL) AS usable,
           min(least(ds.reason, dh.reason)) AS suppressed_reason
      FROM t
      JOIN herald.devices d ON d.user_id = t.user_id AND d.active
      LEFT JOIN herald.suppressions ds ON ds.channel = 'push' AND ds.address = d.token
      LEFT JOIN herald.suppressions dh ON dh.channel = 'push' AND dh.address = herald.suppression_hash('push', d.token)
     WHERE t.channel = 'push'
     GROUP BY t.ord
  ), qh AS (
    SELECT DISTINCT ON (t.ord) t.ord, q.start_time, q.end_time, q.timezone
      FROM t
      JOIN herald.quiet_hours q ON q.user_id = t.user_id AND q.category IN (t.category, '*') AND q.channel IN (t.channel, '*')
     ORDER BY t.ord, (q.category <> '*') DESC, (q.channel <> '*') DESC
  ), facts AS (
    SELECT t.*, u.id IS NOT NULL AS user_exists,
           coalesce(c.mandatory, false) AS mandatory,
           c.frequency_cap,
           coalesce((c.defaults ->> t.channel)::boolean, true) AS default_enabled,
           p.enabled AS pref_enabled, p.source AS pref_source, p.changed_at AS pref_changed_at,
           CASE t.channel WHEN 'email' THEN u.email WHEN 'sms' THEN u.phone END AS addr,
           -- The address itself first: its reason and source are the ones support should read.
           CASE WHEN sa.address IS NOT NULL THEN sa.reason ELSE sh.reason END AS suppression_reason,
           CASE WHEN sa.address IS NOT NULL THEN sa.source ELSE sh.source END AS suppression_source,
           CASE WHEN sa.address IS NOT NULL THEN sa.created_at ELSE sh.created_at END AS suppressed_at,
           dev.tokens, coalesce(dev.usable, 0) AS usable_tokens, dev.suppressed_reason AS token_suppression,
           qh.start_time, qh.end_time, coalesce(qh.timezone, u.timezone, p_default_timezone) AS tz
      FROM t
      LEFT JOIN herald.users u ON u.id = t.user_id
      LEFT JOIN herald.categories c ON c.key = t.category
      LEFT JOIN herald.preferences p ON p.user_id = t.user_id AND p.category = t.category AND p.channel = t.channel
      LEFT JOIN herald.suppressions sa ON t.channel <> 'push' AND sa.channel = t.channel
                                      AND sa.address = CASE t.channel WHEN 'email' THEN u.email WHEN 'sms' THEN u.phone END
      LEFT JOIN herald.suppressions sh ON t.channel <> 'push' AND sh.channel = t.channel
                                      AND sh.address = herald.suppression_hash(t.channel, CASE t.channel WHEN 'email' THEN u.email WHEN 'sms' THEN u.phone END)
      LEFT JOIN dev ON dev.ord = t.ord
      LEFT JOIN qh ON qh.ord = t.ord
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
  ), cap AS (
    SELECT t.ord, count(*) AS sent_in_window, min(n.sent_at) AS oldest_in_window
      FROM t
      JOIN herald.categories c ON c.key = t.category AND c.frequency_cap IS NOT NULL
      JOIN herald.notifications n ON n.user_id = t.user_id AND n.category = t.category AND n.channel = t.channel
       AND n.sent_at > p_now - make_interval(secs => (c.frequency_cap->>'windowSeconds')::int)
     GROUP BY t.ord
  ), capped AS (
    SELECT w.*, coalesce(cap.sent_in_window, 0) AS sent_in_window, cap.oldest_in_window
      FROM windows w
      LEFT JOIN cap ON cap.ord = w.ord
  ), decided AS (
    SELECT c.*,
      CASE
        WHEN NOT c.user_exists THEN 'unreachable:' || CASE c.channel WHEN 'push' THEN 'device' WHEN 'email' THEN 'email' ELSE 'phone' END
        WHEN NOT (c.mandatory OR coalesce(c.pref_enabled, c.default_enabled)) THEN 'category_disabled'
        WHEN c.suppression_reason IS NOT NULL THEN 'suppressed:' || c.suppression_reason
        WHEN c.channel = 'push' AND c.usable_tokens = 0 AND c.token_suppression IS NOT NULL
          THEN 'suppressed:' || c.token_suppression
        WHEN c.channel = 'push' AND c.usable_tokens = 0 THEN 'unreachable:device'
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

-- A whole audience's verdicts counted by channel, variant, verdict and reason: the dry run. It
-- calls herald.evaluate_gates itself, the function every send calls, through EXECUTE so that the
-- statement is planned with the arrays' values: a call planned without them assumes ten tuples
-- and probes per tuple, a million times. p_versions is each tuple's variant, carried beside.
CREATE FUNCTION herald.gate_verdict_counts(
  p_user_ids bigint[], p_channels text[], p_versions integer[], p_category text, p_lane text,
  p_now timestamptz, p_default_timezone text
)
RETURNS TABLE (channel text, version integer, verdict text, reason text, count bigint)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY EXECUTE
    'SELECT x.channel, x.version, g.verdict, g.reason, count(*)
       FROM herald.evaluate_gates($1, $2, array_fill($4, ARRAY[cardinality($1)]), array_fill($5, ARRAY[cardinality($1)]), $6, $7) g
       JOIN unnest($2, $3) WITH ORDINALITY AS x(channel, version, ord) ON x.ord = g.ord
      GROUP BY x.channel, x.version, g.verdict, g.reason'
    USING p_user_ids, p_channels, p_versions, p_category, p_lane, p_now, p_default_timezone;
END $$;

-- "Did not do X in the last D days" asks for one name's summaries with a recent last_at: a range
-- of this index, read index-only, instead of every summary row (decision 10 left it reading the
-- whole table). The price: last_at is now indexed, so the update each activity insert makes to
-- its pair is no longer HOT and writes an entry here (measured in decision 0015).
CREATE INDEX activity_summaries_name_last_idx ON herald.activity_summaries (name, last_at, user_id);
