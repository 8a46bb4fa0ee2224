-- Segments: a named rule tree (validated by packages/core, compiled to one query by packages/db)
-- over users, their attributes, activities, devices and suppressions.

CREATE TABLE herald.segments (
  id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name            text        NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 200),
  description     text        NOT NULL DEFAULT '' CHECK (length(description) <= 2000),
  -- RuleSchema in packages/core; written only after it parsed.
  rule            jsonb       NOT NULL CHECK (jsonb_typeof(rule) = 'object'),
  -- The last live count and when it was taken: the list shows it without counting every segment.
  last_count      integer     CHECK (last_count >= 0),
  last_counted_at timestamptz,
  -- When a broadcast last started sending to it.
  last_used_at    timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  created_by      bigint      REFERENCES herald.members (id) ON DELETE SET NULL,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  updated_by      bigint      REFERENCES herald.members (id) ON DELETE SET NULL,
  CHECK ((last_count IS NULL) = (last_counted_at IS NULL))
);

-- The "is in segment" edges of every rule, rewritten with it: saving walks them to refuse a
-- cycle, and a segment another one names cannot be deleted (RESTRICT) while it is named.
CREATE TABLE herald.segment_dependencies (
  segment_id bigint NOT NULL REFERENCES herald.segments (id) ON DELETE CASCADE,
  depends_on bigint NOT NULL REFERENCES herald.segments (id) ON DELETE RESTRICT,
  PRIMARY KEY (segment_id, depends_on),
  CHECK (segment_id <> depends_on)
);
CREATE INDEX segment_dependencies_depends_on_idx ON herald.segment_dependencies (depends_on);

-- Behaviour conditions probe activities_user_name_idx per user. This one serves the other
-- direction: "did X in the last 7 days" as one range scan over the recent slice of X (a hash
-- semi-join instead of a probe per user when that slice is small), and the builder's list of
-- activity names as a skip scan (one probe per distinct name) instead of reading every row.
-- user_id is in the key so both are index-only.
CREATE INDEX activities_name_time_idx ON herald.activities (name, occurred_at DESC, user_id);

-- An attribute's text as a date: an ISO date (midnight UTC) or date-time (UTC without an offset),
-- null for anything else, without ever raising (a bad string in one user's attributes must not
-- fail a whole count). parseAttributeInstant in packages/core is the same reading; the property
-- test holds the two to agreement. Inlined into each query, so it runs per user: the common
-- shapes (a date, and JavaScript's toISOString) are checked with hashed lookups of their fixed
-- fields, which costs a third of one regular expression; other date-times take the expression.
-- The nested CASEs keep every cast behind the checks that make it safe (AND has no order).
DO $migration$
DECLARE
  two_digits text[] := ARRAY(SELECT lpad(n::text, 2, '0') FROM generate_series(0, 99) n);
  hours      text[] := ARRAY(SELECT lpad(n::text, 2, '0') FROM generate_series(0, 23) n);
  minutes    text[] := ARRAY(SELECT lpad(n::text, 2, '0') FROM generate_series(0, 59) n);
  -- Every month-day a year can have; 02-29 is checked against the year separately.
  month_days text[] := ARRAY(SELECT to_char(d, 'MM-DD') FROM generate_series(date '2024-01-01', date '2024-12-31', interval '1 day') d);
BEGIN
  EXECUTE format($function$
    CREATE FUNCTION herald.attribute_instant(value text) RETURNS timestamptz
    LANGUAGE sql STABLE PARALLEL SAFE AS $body$
      SELECT CASE
        WHEN value LIKE '____-__-__%%'
         AND left(value, 2) = ANY (%1$L::text[]) AND substr(value, 3, 2) = ANY (%1$L::text[]) AND left(value, 4) <> '0000'
         AND substr(value, 6, 5) = ANY (%4$L::text[])
         AND (substr(value, 6, 5) <> '02-29'
              OR (left(value, 4)::int %% 4 = 0 AND (left(value, 4)::int %% 100 <> 0 OR left(value, 4)::int %% 400 = 0)))
        THEN CASE
          WHEN length(value) = 10 THEN (value || 'T00:00:00Z')::timestamptz
          WHEN length(value) = 24 AND value LIKE '____-__-__T__:__:__.___Z'
           AND substr(value, 12, 2) = ANY (%2$L::text[]) AND substr(value, 15, 2) = ANY (%3$L::text[])
           AND substr(value, 18, 2) = ANY (%3$L::text[]) AND substr(value, 21, 2) = ANY (%1$L::text[])
           AND substr(value, 23, 1) = ANY ('{0,1,2,3,4,5,6,7,8,9}'::text[])
            THEN value::timestamptz
          WHEN value ~ '^.{10}T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,6})?)?(Z|[+-](0[0-9]|1[0-5]):?[0-5][0-9])?$'
            THEN (CASE WHEN value ~ '(Z|[+-][0-9]{2}:?[0-9]{2})$' THEN value ELSE value || 'Z' END)::timestamptz
        END
      END
    $body$
  $function$, two_digits, hours, minutes, month_days);
END
$migration$;
