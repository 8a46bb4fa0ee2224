import { exampleScope, renderTemplate, TemplateBodySchema, type Channel } from "@herald/core";
import { broadcastDryRun, databaseTime, findTemplateVersion, listBuckets, type BroadcastRecord } from "@herald/db";
import type { Context } from "../trpc/context.ts";
import { segmentAudience } from "./segment-audience.ts";

/**
 * The dry run as the composer shows it: the gate verdicts of herald.evaluate_gates for every
 * recipient × channel, grouped; an ETA from each channel's provider rate (and the broadcast's
 * throttle); and for SMS the segments per message (rendered from the variant's default copy with
 * the broadcast's data) times the recipients.
 */
export async function dryRunSummary(ctx: Context, broadcast: BroadcastRecord) {
  const sql = ctx.database.pool;
  const settings = await ctx.settings.get();
  const defaultTimezone = settings.get("workspace.defaultTimezone") as string;
  const now = await databaseTime(sql);
  const audience = await segmentAudience.query(sql, broadcast.segmentRule ?? (await segmentAudience.ruleOf(sql, broadcast.segmentId)), now);
  const counts = await broadcastDryRun(sql, broadcast, audience, now, defaultTimezone);

  const sendableBy = (channel: Channel) => counts.rows.filter((r) => r.channel === channel && r.verdict !== "skip").reduce((n, r) => n + r.count, 0);
  const buckets = new Map((await listBuckets(sql)).map((b) => [b.provider, b.ratePerSecond]));
  const channels = broadcast.channels.map((channel) => {
    const provider = ctx.providers.route(channel)?.primary.name ?? null;
    const rate = provider ? (buckets.get(provider) ?? null) : null;
    const sendable = sendableBy(channel);
    const throttleSeconds = broadcast.throttlePerMinute ? (sendable / broadcast.throttlePerMinute) * 60 : 0;
    const etaSeconds = rate ? Math.max(sendable / rate, throttleSeconds) : null;
    return { channel, provider, ratePerSecond: rate, sendable, etaSeconds };
  });

  let sms: { segmentsPerMessage: number; encoding: string; totalSegments: number } | null = null;
  if (broadcast.channels.includes("sms")) {
    const version = await findTemplateVersion(sql, broadcast.templateKey, broadcast.variants[0]!.version);
    const body = version ? TemplateBodySchema.safeParse(version.body) : null;
    if (version && body?.success) {
      const scope = exampleScope(body.data.variables);
      const rendered = renderTemplate({
        body: body.data,
        defaultLocale: version.defaultLocale ?? "en",
        channel: "sms",
        scope: { user: scope.user, data: { ...scope.data, ...broadcast.data } },
      });
      if (rendered.ok) {
        sms = { segmentsPerMessage: rendered.rendered.segments, encoding: rendered.rendered.encoding, totalSegments: rendered.rendered.segments * sendableBy("sms") };
      }
    }
  }
  return {
    audience: counts.audience,
    heldOut: counts.heldOut,
    sendable: channels.reduce((n, c) => n + c.sendable, 0),
    rows: counts.rows,
    channels,
    sms,
  };
}
