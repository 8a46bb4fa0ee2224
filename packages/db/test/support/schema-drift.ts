import internals from "@prisma/internals";
import type pg from "pg";

interface DbColumn {
  table: string;
  column: string;
  /** information_schema's data_type, arrays spelled "text[]" (from udt_name "_text"). */
  type: string;
  nullable: boolean;
}

interface DbIndex {
  table: string;
  name: string;
  columns: string[];
  descending: boolean[];
  unique: boolean;
  primary: boolean;
  partial: boolean;
}

/**
 * Indexes Prisma's schema language cannot express (partial ones). Each is named here with why,
 * so an index that appears in the database by accident still counts as drift.
 */
const RAW_SQL_ONLY_INDEXES: Record<string, string> = {
  devices_active_user_idx: "partial: active tokens per user",
  notifications_pump_idx: "partial: rows waiting for the pump",
  notifications_dead_idx: "partial: dead letters",
  notifications_in_flight_idx: "partial: rows the reaper watches",
  template_versions_one_draft_idx: "partial: one draft per template",
  notifications_broadcast_idx: "partial: one broadcast's rows, for progress, pause and cancel",
  webhook_events_orphans_idx: "partial: orphaned webhooks",
  users_external_id_prefix_idx: "operator class: prefix search by user id",
  users_email_prefix_idx: "expression: prefix search by lower(email)",
  users_phone_prefix_idx: "operator class: prefix search by phone",
  notifications_resent_from_idx: "partial: resends of a notification",
  notification_events_at_brin_idx: "brin: the recent window of the event log",
  alerts_open_idx: "partial unique: one open alert per kind and subject",
  audit_log_action_idx: "collation: action prefixes and the list of actions, by byte order whatever the database's collation",
};

const SCALAR_TYPES: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Boolean: "boolean",
  Json: "jsonb",
  Float: "double precision",
  Decimal: "numeric",
  Bytes: "bytea",
};

const ARRAY_ELEMENT_TYPES: Record<string, string> = { _text: "text", _int4: "integer", _int8: "bigint", _bool: "boolean" };

const NATIVE_TYPES: Record<string, string> = {
  Timestamptz: "timestamp with time zone",
  Timestamp: "timestamp without time zone",
  Time: "time without time zone",
  Date: "date",
  Uuid: "uuid",
  Text: "text",
};

/**
 * Compares schema.prisma with a migrated database, both ways: every model, field, type,
 * nullability, id, unique and index must match, and nothing may exist in the database that
 * the schema does not describe. Returns one sentence per disagreement ([] when in sync).
 */
export async function findSchemaDrift(schemaText: string, db: pg.Pool | pg.Client, schema = "herald"): Promise<string[]> {
  const dmmf = await internals.getDMMF({ datamodel: schemaText });
  const columns = await readColumns(db, schema);
  const indexes = await readIndexes(db, schema);
  const problems: string[] = [];
  const modelTables = new Set<string>();

  for (const model of dmmf.datamodel.models) {
    const table = model.dbName ?? model.name;
    modelTables.add(table);
    const tableColumns = columns.filter((c) => c.table === table);
    if (tableColumns.length === 0) {
      problems.push(`model ${model.name}: table ${schema}.${table} does not exist`);
      continue;
    }
    const fieldColumns = new Map<string, string>();
    for (const field of model.fields) {
      if (field.kind !== "scalar" && field.kind !== "enum") continue;
      const column = field.dbName ?? field.name;
      fieldColumns.set(field.name, column);
      const actual = tableColumns.find((c) => c.column === column);
      if (!actual) {
        problems.push(`${model.name}.${field.name}: column ${table}.${column} does not exist`);
        continue;
      }
      const native = field.nativeType?.[0];
      const scalar = (native && NATIVE_TYPES[native]) ?? (field.type === "DateTime" ? "timestamp without time zone" : SCALAR_TYPES[field.type]);
      const expected = field.isList ? `${scalar}[]` : scalar;
      if (expected !== actual.type) {
        problems.push(`${model.name}.${field.name}: schema.prisma says ${expected ?? field.type}, ${table}.${column} is ${actual.type}`);
      }
      if (field.isRequired === actual.nullable) {
        problems.push(
          `${model.name}.${field.name}: schema.prisma says ${field.isRequired ? "required" : "optional"}, ` +
            `${table}.${column} is ${actual.nullable ? "nullable" : "NOT NULL"}`,
        );
      }
    }
    const described = new Set(fieldColumns.values());
    for (const column of tableColumns) {
      if (!described.has(column.column)) problems.push(`${table}.${column.column} exists in the database but not in model ${model.name}`);
    }

    const tableIndexes = indexes.filter((i) => i.table === table);
    const matched = new Set<string>();
    for (const index of dmmf.datamodel.indexes.filter((i) => i.model === model.name)) {
      const wanted = index.fields.map((f) => fieldColumns.get(f.name) ?? f.name);
      const wantedDesc = index.fields.map((f) => f.sortOrder === "desc");
      const found = tableIndexes.find(
        (i) =>
          !matched.has(i.name) &&
          !i.partial &&
          sameList(i.columns, wanted) &&
          (index.type === "id" ? i.primary : index.type === "unique" ? i.unique && !i.primary : !i.unique) &&
          (index.type !== "normal" || sameList(i.descending, wantedDesc)) &&
          (!index.dbName || index.dbName === i.name),
      );
      const label = `${index.type === "id" ? "primary key" : index.type === "unique" ? "unique" : "index"} ${model.name}(${wanted.join(", ")})`;
      if (found) matched.add(found.name);
      else problems.push(`${label}${index.dbName ? ` "${index.dbName}"` : ""} is in schema.prisma but not in the database`);
    }
    for (const index of tableIndexes) {
      if (matched.has(index.name) || RAW_SQL_ONLY_INDEXES[index.name]) continue;
      problems.push(`index ${index.name} on ${table}(${index.columns.join(", ")}) exists in the database but not in schema.prisma`);
    }
  }

  for (const table of new Set(columns.map((c) => c.table))) {
    if (!modelTables.has(table) && table !== "schema_migrations") {
      problems.push(`table ${schema}.${table} exists in the database but has no model in schema.prisma`);
    }
  }
  return problems;
}

function sameList<T>(a: T[], b: T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

async function readColumns(db: pg.Pool | pg.Client, schema: string): Promise<DbColumn[]> {
  const { rows } = await db.query<{ table_name: string; column_name: string; data_type: string; udt_name: string; is_nullable: string }>(
    `SELECT table_name, column_name, data_type, udt_name, is_nullable
       FROM information_schema.columns WHERE table_schema = $1`,
    [schema],
  );
  return rows.map((r) => ({
    table: r.table_name,
    column: r.column_name,
    type: r.data_type === "ARRAY" ? `${ARRAY_ELEMENT_TYPES[r.udt_name] ?? r.udt_name}[]` : r.data_type,
    nullable: r.is_nullable === "YES",
  }));
}

async function readIndexes(db: pg.Pool | pg.Client, schema: string): Promise<DbIndex[]> {
  const { rows } = await db.query<{
    table: string;
    name: string;
    columns: string[];
    options: number[];
    unique: boolean;
    primary: boolean;
    partial: boolean;
  }>(
    `SELECT t.relname AS table, i.relname AS name, x.indisunique AS unique, x.indisprimary AS primary,
            x.indpred IS NOT NULL OR x.indexprs IS NOT NULL AS partial,
            array(SELECT a.attname::text FROM unnest(x.indkey) WITH ORDINALITY k(attnum, n)
                    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n) AS columns,
            x.indoption::int2[] AS options
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = $1`,
    [schema],
  );
  return rows.map((r) => ({
    table: r.table,
    name: r.name,
    columns: r.columns,
    descending: r.options.map((o) => (o & 1) === 1),
    unique: r.unique,
    primary: r.primary,
    partial: r.partial,
  }));
}
