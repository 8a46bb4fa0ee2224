-- No send after an opt-out commits (decision 0019). The gates run when a batch is claimed, and
-- its provider calls go out over the following moments; a suppression or opt-out committed in
-- between used to be read too late. Now a batch holds shared advisory locks on its recipients'
-- consent keys from a second look at the gates until its calls have been answered, and every
-- write that takes consent away takes the same keys exclusively: it commits either before that
-- second look (which then sees it) or after the calls (which then came first).

-- Keys share one advisory lock space (the two-integer form, which never collides with the
-- one-bigint locks graphile-worker takes). 'HRLD'.
CREATE FUNCTION herald.consent_lock_class() RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 1213353028 $$;

-- A user ('user', id) or an address of any channel ('address', email, phone or push token), in one
-- of 1,024 buckets: a bulk import of a million suppressions then takes at most 1,024 locks, not a
-- million (the shared lock table holds a few thousand), at the price of a writer now and then
-- waiting for a batch that only shares its bucket.
CREATE FUNCTION herald.consent_lock_key(p_kind text, p_value text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT hashtext(p_kind || ':' || lower(p_value)) & 1023 $$;

-- A writer's side: waits for the batches sending to these keys, in key order (two writers never
-- wait on each other in a circle), and holds them until its transaction ends.
CREATE FUNCTION herald.lock_consent(p_keys integer[]) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(herald.consent_lock_class(), k)
     FROM (SELECT DISTINCT k FROM unnest(p_keys) AS k ORDER BY k) keys;
END $$;

-- The dispatcher's side: tries each key for sharing without waiting (a writer waiting for a key
-- makes the try fail, so writers are never starved) and says, per item, whether all its keys
-- are held. p_ords numbers the items; an item's keys are the rows with its number.
CREATE FUNCTION herald.hold_consent(p_ords integer[], p_kinds text[], p_values text[])
RETURNS TABLE (ord integer, held boolean)
LANGUAGE sql VOLATILE AS $$
  WITH wanted AS (
    SELECT x.ord, herald.consent_lock_key(x.kind, x.value) AS k
      FROM unnest(p_ords, p_kinds, p_values) AS x(ord, kind, value)
  ), tried AS MATERIALIZED (
    SELECT k, pg_try_advisory_xact_lock_shared(herald.consent_lock_class(), k) AS ok
      FROM (SELECT DISTINCT k FROM wanted) keys
  )
  SELECT w.ord, bool_and(t.ok) FROM wanted w JOIN tried t USING (k) GROUP BY w.ord ORDER BY w.ord
$$;

-- Writes that take consent away. Statement-level, so a bulk statement locks each bucket once.
CREATE FUNCTION herald.suppressions_lock_consent() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM herald.lock_consent(array_agg(herald.consent_lock_key('address', c.address))) FROM changed c;
  RETURN NULL;
END $$;
CREATE TRIGGER suppressions_lock_consent AFTER INSERT ON herald.suppressions
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION herald.suppressions_lock_consent();

-- A preference turned off, or removed (the category's default may be off).
CREATE FUNCTION herald.preferences_lock_consent() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM herald.lock_consent(array_agg(herald.consent_lock_key('user', c.user_id::text)))
     FROM changed c WHERE TG_OP = 'DELETE' OR NOT c.enabled;
  RETURN NULL;
END $$;
CREATE TRIGGER preferences_lock_consent_insert AFTER INSERT ON herald.preferences
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION herald.preferences_lock_consent();
CREATE TRIGGER preferences_lock_consent_update AFTER UPDATE ON herald.preferences
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION herald.preferences_lock_consent();
CREATE TRIGGER preferences_lock_consent_delete AFTER DELETE ON herald.preferences
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION herald.preferences_lock_consent();

-- A device switched off or removed (an app uninstalled, a user signed out): its token's sends stop.
CREATE FUNCTION herald.devices_lock_consent() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM herald.lock_consent(array_agg(herald.consent_lock_key('user', o.user_id::text)))
     FROM before o JOIN after a ON a.id = o.id WHERE o.active AND NOT a.active;
  RETURN NULL;
END $$;
CREATE FUNCTION herald.devices_lock_consent_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM herald.lock_consent(array_agg(herald.consent_lock_key('user', o.user_id::text))) FROM before o WHERE o.active;
  RETURN NULL;
END $$;
CREATE TRIGGER devices_lock_consent_update AFTER UPDATE ON herald.devices
  REFERENCING OLD TABLE AS before NEW TABLE AS after FOR EACH STATEMENT EXECUTE FUNCTION herald.devices_lock_consent();
CREATE TRIGGER devices_lock_consent_delete AFTER DELETE ON herald.devices
  REFERENCING OLD TABLE AS before FOR EACH STATEMENT EXECUTE FUNCTION herald.devices_lock_consent_deleted();
