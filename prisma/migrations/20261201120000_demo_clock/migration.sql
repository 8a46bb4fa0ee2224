-- A clock that can be set back, for `pnpm demo` (decision 0017). herald.clock() is now(), unless
-- the session or transaction set herald.clock to an instant: then rows are stamped as if they
-- had been written at that instant. Nothing but the demo sets it; without it every column below
-- keeps now() exactly. Only the instants the dashboard shows and the rollup's cohort days read
-- are stamped through it; the machinery's own timing (next_attempt_at, deferrals, leases,
-- buckets, heartbeats) stays on the real clock.
CREATE FUNCTION herald.clock() RETURNS timestamptz LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT coalesce(nullif(current_setting('herald.clock', true), '')::timestamptz, now()) $$;

ALTER TABLE herald.notifications ALTER COLUMN created_at SET DEFAULT herald.clock();
ALTER TABLE herald.notification_events ALTER COLUMN at SET DEFAULT herald.clock();
ALTER TABLE herald.sandbox_messages ALTER COLUMN created_at SET DEFAULT herald.clock();
ALTER TABLE herald.suppressions ALTER COLUMN created_at SET DEFAULT herald.clock();
ALTER TABLE herald.events ALTER COLUMN received_at SET DEFAULT herald.clock();
