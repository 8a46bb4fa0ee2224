-- Per (activity name, user): how many, the first and the last. Segments answer "ever did X",
-- "never did X", "did X at least N times" and "did not do X in the last D days" from it with
-- one short row per user instead of probing every user's raw activities (decision 10).
-- Kept exact by the statement triggers below; no row means no activity of that name.
--
-- Keyed (name, user_id): a count reads one name's rows in user order (a merge or hash join
-- against users) and a per-user probe is an equality on both. No foreign key to users: rows
-- follow activities, which already cascade from users, and a cascade from users would need a
-- second index on user_id. fillfactor leaves room on each page so the update every activity
-- insert makes (count, last_at) stays a HOT update that writes no index entry.
CREATE TABLE herald.activity_summaries (
  name     text        NOT NULL,
  user_id  bigint      NOT NULL,
  first_at timestamptz NOT NULL,
  last_at  timestamptz NOT NULL,
  count    bigint      NOT NULL CHECK (count > 0),
  PRIMARY KEY (name, user_id)
) WITH (fillfactor = 80);

-- Inserts add their counts: INSERT … ON CONFLICT DO UPDATE reads the row as committed (waiting
-- for a concurrent writer of the same pair), so two transactions adding to one pair both count.
-- Pairs are written in (name, user_id) order so two multi-pair statements lock rows in the same
-- order and cannot deadlock each other.
CREATE FUNCTION herald.activity_summaries_add() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO herald.activity_summaries AS s (name, user_id, first_at, last_at, count)
  SELECT name, user_id, min(occurred_at), max(occurred_at), count(*)
    FROM added GROUP BY name, user_id ORDER BY name, user_id
  ON CONFLICT (name, user_id) DO UPDATE
     SET count = s.count + excluded.count,
         first_at = least(s.first_at, excluded.first_at),
         last_at = greatest(s.last_at, excluded.last_at);
  RETURN NULL;
END $$;

-- Deletes and updates recount the pairs they touched, from herald.activities itself: a removed
-- activity may have been the first or the last, which no delta can restore. The rows are locked
-- first (in order), and each later statement of this function takes a new snapshot under READ
-- COMMITTED, so the recount sees every activity committed before the lock; an insert still in
-- flight is blocked on that lock and adds its own count after us.
CREATE FUNCTION herald.activity_summaries_recount(pairs_name text[], pairs_user bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM herald.activity_summaries s
     JOIN unnest(pairs_name, pairs_user) p(name, user_id) ON s.name = p.name AND s.user_id = p.user_id
   ORDER BY s.name, s.user_id
     FOR UPDATE OF s;

  WITH pairs AS (
    SELECT DISTINCT name, user_id FROM unnest(pairs_name, pairs_user) p(name, user_id)
  ), fresh AS (
    SELECT p.name, p.user_id, agg.first_at, agg.last_at, agg.count
      FROM pairs p
      CROSS JOIN LATERAL (SELECT min(a.occurred_at) AS first_at, max(a.occurred_at) AS last_at, count(*) AS count
                            FROM herald.activities a WHERE a.user_id = p.user_id AND a.name = p.name) agg
  ), gone AS (
    DELETE FROM herald.activity_summaries s USING fresh f
     WHERE s.name = f.name AND s.user_id = f.user_id AND f.count = 0
  )
  INSERT INTO herald.activity_summaries AS s (name, user_id, first_at, last_at, count)
  SELECT name, user_id, first_at, last_at, count FROM fresh WHERE count > 0 ORDER BY name, user_id
  ON CONFLICT (name, user_id) DO UPDATE
     SET count = excluded.count, first_at = excluded.first_at, last_at = excluded.last_at;
END $$;

CREATE FUNCTION herald.activity_summaries_remove() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  pairs_name text[];
  pairs_user bigint[];
BEGIN
  SELECT array_agg(name ORDER BY name, user_id), array_agg(user_id ORDER BY name, user_id) INTO pairs_name, pairs_user
    FROM (SELECT DISTINCT name, user_id FROM removed) r;
  IF pairs_name IS NOT NULL THEN
    PERFORM herald.activity_summaries_recount(pairs_name, pairs_user);
  END IF;
  RETURN NULL;
END $$;

-- An update that moves activities (another user, name or time; ids never change, they are
-- GENERATED ALWAYS): the new pairs are added as inserts are (so a pair that did not exist yet is
-- created as concurrent inserts create it), then every pair on either side is recounted under its
-- lock. An update of properties alone touches no summary.
CREATE FUNCTION herald.activity_summaries_move() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  pairs_name text[];
  pairs_user bigint[];
BEGIN
  INSERT INTO herald.activity_summaries AS s (name, user_id, first_at, last_at, count)
  SELECT n.name, n.user_id, min(n.occurred_at), max(n.occurred_at), count(*)
    FROM removed o JOIN added n ON n.id = o.id
   WHERE (o.name, o.user_id, o.occurred_at) IS DISTINCT FROM (n.name, n.user_id, n.occurred_at)
   GROUP BY n.name, n.user_id ORDER BY n.name, n.user_id
  ON CONFLICT (name, user_id) DO UPDATE
     SET count = s.count + excluded.count,
         first_at = least(s.first_at, excluded.first_at),
         last_at = greatest(s.last_at, excluded.last_at);
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  SELECT array_agg(name ORDER BY name, user_id), array_agg(user_id ORDER BY name, user_id) INTO pairs_name, pairs_user
    FROM (SELECT o.name, o.user_id FROM removed o JOIN added n ON n.id = o.id
           WHERE (o.name, o.user_id, o.occurred_at) IS DISTINCT FROM (n.name, n.user_id, n.occurred_at)
          UNION
          SELECT n.name, n.user_id FROM removed o JOIN added n ON n.id = o.id
           WHERE (o.name, o.user_id, o.occurred_at) IS DISTINCT FROM (n.name, n.user_id, n.occurred_at)) r;
  PERFORM herald.activity_summaries_recount(pairs_name, pairs_user);
  RETURN NULL;
END $$;

CREATE TRIGGER activity_summaries_add AFTER INSERT ON herald.activities
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION herald.activity_summaries_add();
CREATE TRIGGER activity_summaries_remove AFTER DELETE ON herald.activities
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION herald.activity_summaries_remove();
CREATE TRIGGER activity_summaries_move AFTER UPDATE ON herald.activities
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION herald.activity_summaries_move();

-- Backfill: the migration runs in one transaction and the triggers exist from here on, so no
-- activity is missed or counted twice (a concurrent insert waits for the table's lock).
LOCK TABLE herald.activities IN SHARE MODE;
INSERT INTO herald.activity_summaries (name, user_id, first_at, last_at, count)
SELECT name, user_id, min(occurred_at), max(occurred_at), count(*)
  FROM herald.activities GROUP BY name, user_id ORDER BY name, user_id;
