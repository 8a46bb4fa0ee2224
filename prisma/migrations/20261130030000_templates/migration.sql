-- Templates: content by key and immutable version, pinned on each notification when it is
-- created, so a retry an hour later renders the copy that was current then.

CREATE TABLE herald.templates (
  key              text        PRIMARY KEY CHECK (key ~ '^[a-z][a-z0-9_.-]{0,127}$'),
  name             text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  channels         text[]      NOT NULL CHECK (cardinality(channels) BETWEEN 1 AND 3 AND channels <@ ARRAY['push', 'email', 'sms']),
  -- Shown in composers only: the category that gates a send is the notification type's or the broadcast's.
  default_category text        REFERENCES herald.categories (key) ON DELETE SET NULL,
  default_locale   text        NOT NULL,
  -- What new events and broadcasts pin; null until the first publish.
  current_version  integer,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  updated_by       bigint      REFERENCES herald.members (id) ON DELETE SET NULL
);

-- A version's body is { variables, content } as packages/core validates it. The draft has no
-- number; publishing gives it the next one and freezes it (the trigger below).
CREATE TABLE herald.template_versions (
  id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  template_key text        NOT NULL REFERENCES herald.templates (key) ON DELETE CASCADE,
  version      integer     CHECK (version >= 1),
  status       text        NOT NULL CHECK (status IN ('draft', 'published', 'archived')),
  variables    jsonb       NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(variables) = 'array'),
  content      jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(content) = 'object'),
  -- The published version a draft was started from, for "changed since" and the publish diff.
  based_on     integer,
  -- Frozen at publish with the body, so changing the template's default locale later never
  -- changes which copy a pinned notification falls back to.
  default_locale text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  updated_by   bigint      REFERENCES herald.members (id) ON DELETE SET NULL,
  published_at timestamptz,
  published_by bigint      REFERENCES herald.members (id) ON DELETE SET NULL,
  CHECK ((status = 'draft') = (version IS NULL)),
  CHECK ((status = 'draft') = (published_at IS NULL)),
  CHECK ((status = 'draft') = (default_locale IS NULL)),
  UNIQUE (template_key, version)
);
-- One draft per template at a time.
CREATE UNIQUE INDEX template_versions_one_draft_idx ON herald.template_versions (template_key) WHERE status = 'draft';

-- Published is forever: the body and number of a published or archived version never change,
-- and it is never deleted while its template exists, whatever code or hand-written SQL tries.
CREATE FUNCTION herald.freeze_published_template_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status <> 'draft' AND EXISTS (SELECT 1 FROM herald.templates t WHERE t.key = OLD.template_key) THEN
      RAISE EXCEPTION 'template % version % is published and cannot be deleted', OLD.template_key, OLD.version
        USING ERRCODE = 'P0001', HINT = 'archive it instead';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.status <> 'draft' AND (
       NEW.version IS DISTINCT FROM OLD.version OR NEW.template_key <> OLD.template_key
    OR NEW.variables <> OLD.variables OR NEW.content <> OLD.content OR NEW.status = 'draft'
    OR NEW.published_at IS DISTINCT FROM OLD.published_at OR NEW.default_locale IS DISTINCT FROM OLD.default_locale) THEN
    RAISE EXCEPTION 'template % version % is published and cannot be edited', OLD.template_key, OLD.version
      USING ERRCODE = 'P0001', HINT = 'start a draft from it instead';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER template_versions_frozen
  BEFORE UPDATE OR DELETE ON herald.template_versions
  FOR EACH ROW EXECUTE FUNCTION herald.freeze_published_template_version();

-- Where "send test" delivers for a member: their own email, and these when they set them.
ALTER TABLE herald.members
  ADD COLUMN test_phone text CHECK (test_phone ~ '^\+[1-9][0-9]{6,14}$'),
  ADD COLUMN test_push_token text CHECK (length(test_push_token) BETWEEN 1 AND 4096);

-- Ingest pins the template's current version on every notification it creates.
CREATE OR REPLACE FUNCTION herald.ingest_events(p_events jsonb)
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
      (dedup_key, event_ref, user_id, type, channel, category, lane, template_key, template_version, content, locale, vars)
    SELECT r.event_id || ':' || r.user_id || ':' || (r.step->>'channel'),
           r.id, r.user_id, r.type, r.step->>'channel',
           coalesce((SELECT a.category_key FROM herald.category_aliases a WHERE a.alias = r.step->>'category'), r.step->>'category'),
           coalesce(r.step->>'lane', 'bulk'), r.step->>'template',
           -- Pinned now: a retry an hour later renders this version, whatever is published since.
           (SELECT t.current_version FROM herald.templates t WHERE t.key = r.step->>'template'),
           r.step->'content', r.locale, r.data
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
