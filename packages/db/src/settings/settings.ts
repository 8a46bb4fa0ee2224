import type { Db } from "../client-types.ts";
import type { Prisma } from "../generated/prisma/client.ts";

export interface SettingRow {
  key: string;
  value: unknown;
  updatedAt: Date;
  updatedBy: string | null;
}

export async function listSettingRows(db: Db): Promise<SettingRow[]> {
  const rows = await db.setting.findMany();
  return rows.map((r) => ({ key: r.key, value: r.value, updatedAt: r.updatedAt, updatedBy: r.updatedBy?.toString() ?? null }));
}

export async function upsertSetting(db: Db, key: string, value: Prisma.InputJsonValue, updatedBy: string | null): Promise<void> {
  const by = updatedBy === null ? null : BigInt(updatedBy);
  await db.setting.upsert({
    where: { key },
    create: { key, value, updatedBy: by },
    update: { value, updatedBy: by, updatedAt: new Date() },
  });
}
