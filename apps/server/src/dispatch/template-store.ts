import { TemplateBodySchema, type TemplateBody } from "@herald/core";
import { loadPinnedTemplateVersions, type ClaimedNotification, type Sql } from "@herald/db";

/** A published version as rendering needs it, validated once when loaded. */
export interface PinnedTemplate {
  defaultLocale: string;
  body: TemplateBody;
}

/** Per batch: the batch's pinned versions, then a synchronous lookup (undefined = unknown or unreadable). */
export type TemplateLookup = (key: string, version: number) => PinnedTemplate | undefined;

export interface TemplateStore {
  forBatch(notifications: ReadonlyArray<Pick<ClaimedNotification, "templateKey" | "templateVersion">>): Promise<TemplateLookup>;
}

const pinKey = (key: string, version: number) => `${key}@${version}`;

/**
 * Published versions never change, so a loaded one is kept for the life of the process (up to
 * `capacity`, least recently used out first); only versions a batch has not seen are queried.
 */
export function createTemplateStore(sql: Sql, capacity = 1_000): TemplateStore {
  const cache = new Map<string, PinnedTemplate | null>();
  const remember = (key: string, value: PinnedTemplate | null) => {
    cache.delete(key);
    cache.set(key, value);
    if (cache.size > capacity) cache.delete(cache.keys().next().value!);
  };
  return {
    async forBatch(notifications) {
      const missing = new Map<string, { key: string; version: number }>();
      for (const n of notifications) {
        if (n.templateKey === null || n.templateVersion === null) continue;
        const k = pinKey(n.templateKey, n.templateVersion);
        if (!cache.has(k)) missing.set(k, { key: n.templateKey, version: n.templateVersion });
      }
      if (missing.size > 0) {
        for (const row of await loadPinnedTemplateVersions(sql, [...missing.values()])) {
          const body = TemplateBodySchema.safeParse(row.body);
          // A body that no longer parses (a schema tightened since it was published) renders as
          // render_failed:template rather than throwing the whole batch.
          remember(pinKey(row.key, row.version), body.success ? { defaultLocale: row.defaultLocale, body: body.data } : null);
          missing.delete(pinKey(row.key, row.version));
        }
      }
      return (key, version) => {
        const k = pinKey(key, version);
        const hit = cache.get(k);
        if (hit !== undefined) remember(k, hit);
        return hit ?? undefined;
      };
    },
  };
}
