import { appendAudit, listSettingRows, upsertSetting, type Database, type Prisma } from "@herald/db";
import type { Env } from "../env.ts";
import { AppError } from "../errors.ts";
import { SETTINGS, findSettingDefinition } from "./registry.ts";

export interface SettingView {
  key: string;
  label: string;
  description: string;
  type: "string" | "number" | "boolean";
  value: string | number | boolean;
  /** The environment variable pinning it, or null when the dashboard may change it. */
  pinnedBy: string | null;
  updatedAt: string | null;
}

export async function listSettings(database: Database, env: Env): Promise<SettingView[]> {
  const rows = new Map((await listSettingRows(database.prisma)).map((r) => [r.key, r]));
  return SETTINGS.map((definition) => {
    const pin = env.pinnedSettings.get(definition.key);
    const row = rows.get(definition.key);
    const stored = row && definition.schema.safeParse(row.value);
    return {
      key: definition.key,
      label: definition.label,
      description: definition.description,
      type: definition.type,
      value: (pin?.value ?? (stored?.success ? stored.data : definition.default)) as string | number | boolean,
      pinnedBy: pin?.env ?? null,
      updatedAt: row?.updatedAt.toISOString() ?? null,
    };
  });
}

/** One setting's effective value: pinned by the environment, else stored, else the default. */
export async function getSetting<T extends string | number | boolean>(database: Database, env: Env, key: string): Promise<T> {
  const setting = (await listSettings(database, env)).find((s) => s.key === key);
  if (!setting) throw new Error(`Unknown setting ${key}`);
  return setting.value as T;
}

/** Effective values by key. */
export type SettingsSnapshot = ReadonlyMap<string, string | number | boolean>;

/**
 * Settings for hot paths (every dispatch batch, every ingest): read from Postgres at most once
 * per `maxAgeMs` per process, so a change made in the dashboard reaches every worker within it.
 */
export function createSettingsCache(database: Database, env: Env, maxAgeMs = 2000) {
  let snapshot: SettingsSnapshot | null = null;
  let loadedAt = 0;
  let loading: Promise<SettingsSnapshot> | null = null;
  const load = async (): Promise<SettingsSnapshot> => {
    const settings = await listSettings(database, env);
    snapshot = new Map(settings.map((s) => [s.key, s.value]));
    loadedAt = Date.now();
    return snapshot;
  };
  return {
    async get(): Promise<SettingsSnapshot> {
      if (snapshot && Date.now() - loadedAt < maxAgeMs) return snapshot;
      loading ??= load().finally(() => {
        loading = null;
      });
      return loading;
    },
    /** The last snapshot, for synchronous readers; call get() first. */
    current(): SettingsSnapshot {
      if (!snapshot) throw new Error("settings cache read before its first load");
      return snapshot;
    },
  };
}

export type SettingsCache = ReturnType<typeof createSettingsCache>;

export interface Actor {
  memberId: string | null;
  label: string;
  ip?: string | null;
}

export async function updateSetting(database: Database, env: Env, key: string, value: unknown, actor: Actor): Promise<SettingView> {
  const definition = findSettingDefinition(key);
  if (!definition) throw new AppError("NOT_FOUND", `There is no setting "${key}"`);
  const pin = env.pinnedSettings.get(key);
  if (pin) throw new AppError("BAD_REQUEST", `"${definition.label}" is set by ${pin.env} and cannot be changed here`);
  const parsed = definition.schema.safeParse(value);
  if (!parsed.success) {
    throw new AppError("BAD_REQUEST", `${definition.label}: ${parsed.error.issues[0]?.message ?? "invalid value"}`);
  }
  const before = await getSetting(database, env, key);
  await database.prisma.$transaction(async (tx) => {
    await upsertSetting(tx, key, parsed.data as Prisma.InputJsonValue, actor.memberId);
    await appendAudit(tx, {
      actorMemberId: actor.memberId,
      actor: actor.label,
      action: "settings.update",
      target: key,
      detail: { from: before, to: parsed.data as Prisma.InputJsonValue },
      ip: actor.ip ?? null,
    });
  });
  return (await listSettings(database, env)).find((s) => s.key === key)!;
}

/** Writes environment-pinned values into Postgres so every process (and the audit log) sees them. */
export async function seedPinnedSettings(database: Database, env: Env): Promise<string[]> {
  const rows = new Map((await listSettingRows(database.prisma)).map((r) => [r.key, r.value]));
  const changed: string[] = [];
  for (const [key, pin] of env.pinnedSettings) {
    if (JSON.stringify(rows.get(key)) === JSON.stringify(pin.value)) continue;
    await database.prisma.$transaction(async (tx) => {
      await upsertSetting(tx, key, pin.value as Prisma.InputJsonValue, null);
      await appendAudit(tx, {
        actorMemberId: null,
        actor: `env:${pin.env}`,
        action: "settings.update",
        target: key,
        detail: { from: (rows.get(key) ?? null) as Prisma.InputJsonValue, to: pin.value as Prisma.InputJsonValue },
      });
    });
    changed.push(key);
  }
  return changed;
}
