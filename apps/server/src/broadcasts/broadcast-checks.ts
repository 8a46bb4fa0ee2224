import type { BroadcastInput } from "@herald/core";
import type { Sql } from "@herald/db";
import { AppError } from "../errors.ts";

/**
 * What the composer's input names must exist now: the segment, the category, the template with
 * content for every chosen channel, and each variant as a published (not archived) version.
 */
export async function checkBroadcastReferences(sql: Sql, input: BroadcastInput): Promise<void> {
  const { rows } = await sql.query(
    `SELECT (SELECT count(*) FROM herald.segments WHERE id = $1)::int AS segments,
            (SELECT count(*) FROM herald.categories WHERE key = $2)::int AS categories,
            (SELECT channels FROM herald.templates WHERE key = $3) AS channels,
            (SELECT coalesce(array_agg(version), '{}') FROM herald.template_versions WHERE template_key = $3 AND status = 'published') AS published`,
    [input.segmentId, input.category, input.templateKey],
  );
  const r = rows[0];
  if (r.segments === 0) throw new AppError("BAD_REQUEST", `segmentId: there is no segment ${input.segmentId}`);
  if (r.categories === 0) throw new AppError("BAD_REQUEST", `category: there is no category "${input.category}"`);
  if (r.channels === null) throw new AppError("BAD_REQUEST", `templateKey: there is no template "${input.templateKey}"`);
  const missing = input.channels.filter((c) => !(r.channels as string[]).includes(c));
  if (missing.length > 0) throw new AppError("BAD_REQUEST", `channels: template "${input.templateKey}" has no ${missing.join(" or ")} content`);
  const unpublished = input.variants.filter((v) => !(r.published as number[]).includes(v.version)).map((v) => v.version);
  if (unpublished.length > 0) {
    throw new AppError("BAD_REQUEST", `variants: version${unpublished.length > 1 ? "s" : ""} ${unpublished.join(", ")} of "${input.templateKey}" ${unpublished.length > 1 ? "are" : "is"} not published`);
  }
}
