import { recordEngagement, type EngagementInput } from "@herald/db";
import express, { type Router } from "express";
import type { Logger } from "pino";
import { linkTokensFor } from "../../links/link-tokens.ts";
import type { AppServices } from "../../trpc/context.ts";
import { detectOpenProxy } from "./open-proxies.ts";

/** A 1×1 transparent GIF (43 bytes). */
export const PIXEL_GIF = Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64");

const NO_STORE = { "Cache-Control": "no-store, no-cache, must-revalidate, private, max-age=0", Pragma: "no-cache", Expires: "0" };

/**
 * /t/o/:token.gif (open pixel) and /t/c/:token (click redirect), for categories that opt in
 * (docs/unsubscribe-and-tracking.md). The pixel always answers the GIF, whatever the token, so a
 * mail client never shows a broken image; only a genuine token writes. A click redirects only to
 * the URL signed into its token: a changed token is a 404 without a Location header.
 */
export function trackingRoutes(services: AppServices): Router {
  const router = express.Router();
  const { log } = services;
  const tokens = linkTokensFor(services.env, log);
  const sql = services.database.pool;

  router.get("/t/o/:file", async (req, res) => {
    const file = req.params.file;
    const payload = file.endsWith(".gif") ? (tokens?.verify("open", file.slice(0, -4)) ?? null) : null;
    if (payload) {
      const proxy = detectOpenProxy(req.get("user-agent"));
      await record(log, sql, {
        notificationId: payload.n,
        kind: "opened",
        detail: proxy ? { proxy: proxy.proxy, prefetch: proxy.prefetch } : {},
        countsAsFirst: !proxy?.prefetch,
      });
    }
    res.status(200).set({ ...NO_STORE, "Content-Type": "image/gif", "Content-Length": String(PIXEL_GIF.length) }).end(PIXEL_GIF);
  });

  router.get("/t/c/:token", async (req, res) => {
    const payload = tokens?.verify("click", req.params.token) ?? null;
    if (!payload) return res.status(404).set(NO_STORE).type("text/plain").send("This link doesn't work: it is incomplete or was changed.\n");
    await record(log, sql, { notificationId: payload.n, kind: "clicked", detail: { url: payload.url }, countsAsFirst: true });
    // Normalised by the URL parser: whatever the HTML held, the Location header is a clean URL.
    res.status(302).set({ ...NO_STORE, Location: new URL(payload.url).href, "Referrer-Policy": "no-referrer" }).end();
  });

  return router;
}

// Tracking is best effort: a database hiccup must not break an image or a reader's click.
async function record(log: Logger, sql: AppServices["database"]["pool"], input: EngagementInput): Promise<void> {
  try {
    await recordEngagement(sql, input);
  } catch (error) {
    log.warn({ err: error, notificationId: input.notificationId, kind: input.kind }, "could not record an email engagement");
  }
}
