import type { BroadcastInput } from "@herald/core";
import { findBroadcastReferences, type Sql } from "@herald/db";
import { AppError } from "../errors.ts";

/**
 * What the composer's input names must exist now: the segment, the category, the template with
 * content for every chosen channel, and each variant as a published (not archived) version.
 */
export async function checkBroadcastReferences(sql: Sql, input: BroadcastInput): Promise<void> {
  const r = await findBroadcastReferences(sql, input);
  if (!r.segmentExists) throw new AppError("BAD_REQUEST", `segmentId: there is no segment ${input.segmentId}`);
  if (!r.categoryExists) throw new AppError("BAD_REQUEST", `category: there is no category "${input.category}"`);
  if (r.templateChannels === null) throw new AppError("BAD_REQUEST", `templateKey: there is no template "${input.templateKey}"`);
  const missing = input.channels.filter((c) => !r.templateChannels!.includes(c));
  if (missing.length > 0) throw new AppError("BAD_REQUEST", `channels: template "${input.templateKey}" has no ${missing.join(" or ")} content`);
  const unpublished = input.variants.filter((v) => !r.publishedVersions.includes(v.version)).map((v) => v.version);
  if (unpublished.length > 0) {
    throw new AppError("BAD_REQUEST", `variants: version${unpublished.length > 1 ? "s" : ""} ${unpublished.join(", ")} of "${input.templateKey}" ${unpublished.length > 1 ? "are" : "is"} not published`);
  }
}
