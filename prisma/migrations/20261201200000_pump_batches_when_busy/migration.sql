-- The pump cut a job of whatever was due every pass (100 ms), so a steady 50 events/s made bulk
-- jobs of five rows, each paying a whole batch's fixed cost (claim, gates, consent hold, attempts,
-- results, the job itself) and holding a lane for its slowest call. Now, while a bulk lane already
-- has a job due and unstarted, its workers are behind, and rows that would only wait behind that
-- job are left to grow into full jobs: only full ones are added. A lane that keeps up still gets
-- every due row at once. The critical lane keeps the old rule: its rows are few and its latency is
-- the point. And a job's run_at is its latest row's time, no longer the start of that second: a row
-- due at 12.4 s was sent at 12.0.

CREATE OR REPLACE FUNCTION herald.pump(p_batch_size integer, p_max_queued_batches integer, p_lookahead interval)
RETURNS TABLE (channel text, lane text, notifications integer, jobs integer)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  ch text;
  ln text;
  waiting integer;
  behind boolean;
  horizon timestamptz;
  room integer;
  claimed integer;
  added integer;
BEGIN
  FOREACH ch IN ARRAY ARRAY['push', 'email', 'sms'] LOOP
    FOREACH ln IN ARRAY ARRAY['critical', 'bulk'] LOOP
      -- Each lane has its own allowance of unstarted jobs, so a deep bulk queue never keeps a
      -- critical row from getting its job (graphile-worker then runs it first, by priority).
      -- Below the allowance the count is exact, and so is whether one of them is due already.
      -- is_available, not just unlocked: a job that used up its attempts never runs again, and
      -- counted it would hold the lane's allowance, and its partial rows, for good.
      SELECT count(*), coalesce(bool_or(x.run_at <= now()), false) INTO waiting, behind FROM (
        SELECT j.run_at FROM graphile_worker._private_jobs j
          JOIN graphile_worker._private_tasks t ON t.id = j.task_id
         WHERE t.identifier = 'send_' || ch AND j.is_available AND j.run_at <= now() + p_lookahead
           AND j.priority = CASE ln WHEN 'critical' THEN -10 ELSE 0 END
         LIMIT p_max_queued_batches) x;
      room := (p_max_queued_batches - waiting) * p_batch_size;
      horizon := now() + p_lookahead;
      IF behind AND ln = 'bulk' THEN
        -- Full jobs of what is due now; the rest joins them in a later pass.
        SELECT (count(*) / p_batch_size) * p_batch_size INTO room FROM (
          SELECT 1 FROM herald.notifications n
           WHERE n.channel = ch AND n.lane = ln AND n.job_queued_at IS NULL
             AND n.dispatch_state IN ('queued', 'retry_wait', 'deferred')
             AND n.next_attempt_at <= now()
           LIMIT greatest(room, 0)) x;
        horizon := now();
      END IF;
      CONTINUE WHEN room <= 0;
      WITH due AS (
        SELECT n.id, greatest(n.next_attempt_at, now()) AS run_at
          FROM herald.notifications n
         WHERE n.channel = ch AND n.lane = ln AND n.job_queued_at IS NULL
           AND n.dispatch_state IN ('queued', 'retry_wait', 'deferred')
           AND n.next_attempt_at <= horizon
         ORDER BY n.next_attempt_at
         LIMIT room
           FOR UPDATE SKIP LOCKED
      ), marked AS (
        UPDATE herald.notifications n SET job_queued_at = now()
          FROM due WHERE n.id = due.id
        RETURNING n.id, due.run_at
      ), numbered AS (
        -- Rows due in the same second share jobs; a job never holds more than p_batch_size.
        SELECT m.id, m.run_at, date_trunc('second', m.run_at) AS second,
               (row_number() OVER (PARTITION BY date_trunc('second', m.run_at) ORDER BY m.id) - 1) / p_batch_size AS chunk
          FROM marked m
      ), specs AS (
        -- A job runs when its latest row is due: run at the start of the second, a send scheduled
        -- for 12.4 s went out at 12.0 (the reliability suite's clock-skew run caught one 65 ms early).
        SELECT ('send_' || ch, json_build_object('ids', json_agg(nb.id::text ORDER BY nb.id)), NULL, max(nb.run_at), 25, NULL,
                CASE ln WHEN 'critical' THEN -10 ELSE 0 END, NULL)::graphile_worker.job_spec AS spec,
               count(*) AS n
          FROM numbered nb
         GROUP BY nb.second, nb.chunk
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
