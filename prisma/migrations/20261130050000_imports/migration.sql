-- CSV import: an uploaded file's records wait in a staging table until the member has mapped
-- its columns; a graphile-worker task then applies them in chunks (set-based, progress kept
-- here), so an import survives a restart and never needs the file in one process's memory.

CREATE TABLE herald.imports (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  file_name      text        NOT NULL CHECK (length(file_name) BETWEEN 1 AND 255),
  byte_size      bigint      NOT NULL CHECK (byte_size >= 0),
  delimiter      text        NOT NULL CHECK (delimiter IN (',', ';', E'\t', '|')),
  header         text[]      NOT NULL,
  -- The first data rows, for mapping and preview without reading the staging table.
  sample         jsonb       NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(sample) = 'array'),
  total_rows     integer     NOT NULL CHECK (total_rows >= 0),
  -- What the rows become; both set when the import starts (ImportMappingSchema in packages/core).
  kind           text        CHECK (kind IN ('users', 'suppressions', 'opt_outs')),
  mapping        jsonb,
  status         text        NOT NULL DEFAULT 'uploaded' CHECK (status IN ('uploaded', 'queued', 'running', 'done', 'failed')),
  -- Rows 2 .. processed_rows + 1 are done (the header is row 1): the task's resume point.
  processed_rows integer     NOT NULL DEFAULT 0 CHECK (processed_rows BETWEEN 0 AND total_rows),
  imported_rows  integer     NOT NULL DEFAULT 0,
  failed_rows    integer     NOT NULL DEFAULT 0,
  -- New users, suppressions or preferences; and existing ones merged, kept or changed.
  created_count  integer     NOT NULL DEFAULT 0,
  updated_count  integer     NOT NULL DEFAULT 0,
  failure        text,
  created_by     bigint      REFERENCES herald.members (id) ON DELETE SET NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  started_at     timestamptz,
  finished_at    timestamptz,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind IS NULL) = (mapping IS NULL)),
  CHECK (status = 'uploaded' OR kind IS NOT NULL)
);
CREATE INDEX imports_created_idx ON herald.imports (created_at DESC, id DESC);

-- One row per CSV record, as the cells were read. A row that is applied is deleted in the same
-- transaction; what stays after the import is each bad row with its reason: the error report.
-- No foreign key to imports: a per-row check would slow the COPY of a million rows, and
-- deleting an import deletes its rows itself.
CREATE TABLE herald.import_rows (
  import_id  bigint  NOT NULL,
  row_number integer NOT NULL CHECK (row_number >= 2),
  fields     jsonb   NOT NULL CHECK (jsonb_typeof(fields) = 'array'),
  error      text,
  PRIMARY KEY (import_id, row_number)
);
