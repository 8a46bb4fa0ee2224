import {
  applyLinkPreference,
  findLinkRecipient,
  getPreferenceMatrix,
  listCategories,
  listQuietHours,
  withTransaction,
  type LinkPreferenceResult,
} from "@herald/db";
import express, { type Response, type Router } from "express";
import { z } from "zod";
import { linkTokensFor, type LinkPayload } from "../../links/link-tokens.ts";
import type { AppServices } from "../../trpc/context.ts";
import { formFields, multipartBody, urlencodedBody } from "./form-fields.ts";
import { messagePage, preferencePage, type PreferenceRow } from "./preference-page.ts";

type Channel = "push" | "email" | "sms";

const SetFormSchema = z.object({
  category: z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/),
  channel: z.enum(["push", "email", "sms"]),
  enabled: z.enum(["true", "false"]).transform((v) => v === "true"),
});

const NOTICES: Record<LinkPreferenceResult["kind"], (what: string, enabled: boolean) => string> = {
  changed: (what, enabled) => (enabled ? `Done: you'll receive ${what} again.` : `Done: you won't receive ${what} any more.`),
  unchanged: (what, enabled) => (enabled ? `You already receive ${what}.` : `You're already unsubscribed from ${what}.`),
  mandatory: (what) => `${what} are always sent and can't be switched off.`,
  unknown_category: () => "That category no longer exists; nothing was changed.",
  unknown_user: () => "Nothing was changed.",
};
const NOUN: Record<Channel, string> = { push: "push notifications", email: "emails", sms: "text messages" };

/**
 * /u/:token, the List-Unsubscribe target and preference centre (docs/unsubscribe-and-tracking.md).
 * The signed token is the only authorisation: no cookie or session is read or set, so a
 * cross-site form cannot act for anyone whose token it does not already hold. GET never writes
 * (mail scanners follow links); POST is RFC 8058's one-click opt-out or one of the page's forms,
 * answered 200 in place (never a redirect). Opt-outs are preferences, never suppressions.
 */
export function unsubscribeRoutes(services: AppServices): Router {
  const router = express.Router();
  const { database, log, settings } = services;
  const tokens = linkTokensFor(services.env, log);
  const sql = database.pool;

  const verify = (token: string) => tokens?.verify("unsubscribe", token) ?? null;
  const notFound = (res: Response) =>
    sendPage(res, 404, messagePage("This link doesn't work", "The link is incomplete or was changed. Use the link from the latest message you received."));

  async function renderPreferences(res: Response, payload: LinkPayload<"unsubscribe">, externalId: string, notice: string | null) {
    const [snapshot, matrix, categories, quiet] = await Promise.all([
      settings.get(),
      getPreferenceMatrix(sql, externalId),
      listCategories(sql),
      listQuietHours(sql, payload.u),
    ]);
    const rows: PreferenceRow[] = categories.map((c) => ({
      key: c.key,
      label: c.label,
      mandatory: c.mandatory,
      enabled: Object.fromEntries(matrix.filter((p) => p.category === c.key).map((p) => [p.channel, p.enabled])) as Record<Channel, boolean>,
    }));
    const workspace = String(snapshot.get("workspace.name") ?? "Herald");
    sendPage(res, 200, preferencePage({ workspace, linked: { category: payload.c, channel: payload.ch }, rows, quietHours: quiet, notice }));
  }

  router.get("/u/:token", async (req, res) => {
    const payload = verify(req.params.token);
    if (!payload) return notFound(res);
    const recipient = await findLinkRecipient(sql, payload.u);
    if (!recipient) return notFound(res);
    await renderPreferences(res, payload, recipient.externalId, null);
  });

  router.post("/u/:token", urlencodedBody, multipartBody, async (req, res) => {
    const payload = verify(String(req.params.token));
    const fields = formFields(req);
    const oneClick = fields.get("List-Unsubscribe") === "One-Click";
    if (!payload) return oneClick ? res.status(404).type("text/plain").send("Not found\n") : notFound(res);

    const change = oneClick ? { category: payload.c, channel: payload.ch, enabled: false } : pageChange(payload, fields);
    if (!change) {
      return sendPage(res, 400, messagePage("Nothing was changed", "This form was not understood. Open the link from your message again."));
    }
    const result = await withTransaction(database.pool, (tx) =>
      applyLinkPreference(tx, { notificationId: payload.n, userId: payload.u, ...change, via: oneClick ? "one_click" : "page", ip: req.ip ?? null }),
    );
    log.info({ notificationId: payload.n, category: change.category, channel: change.channel, enabled: change.enabled, result: result.kind }, "unsubscribe link used");
    // RFC 8058: the one-click POST gets a plain 200 whatever the state (mandatory, repeated).
    if (oneClick) return res.status(200).type("text/plain").set("Cache-Control", "no-store").send("Unsubscribed\n");
    if (result.kind === "unknown_user") return notFound(res);
    const label = (await listCategories(sql)).find((c) => c.key === change.category)?.label ?? change.category;
    const notice = NOTICES[result.kind](`${label} ${NOUN[change.channel]}`, change.enabled);
    const recipient = await findLinkRecipient(sql, payload.u);
    if (!recipient) return notFound(res);
    await renderPreferences(res, payload, recipient.externalId, notice);
  });

  return router;
}

/** What a form of the page asks for: the linked category's opt-out or opt-in, or one toggle. */
function pageChange(payload: LinkPayload<"unsubscribe">, fields: Map<string, string>): { category: string; channel: Channel; enabled: boolean } | null {
  const action = fields.get("action");
  if (action === "unsubscribe" || action === "resubscribe") return { category: payload.c, channel: payload.ch, enabled: action === "resubscribe" };
  if (action !== "set") return null;
  const parsed = SetFormSchema.safeParse(Object.fromEntries(fields));
  return parsed.success ? parsed.data : null;
}

function sendPage(res: Response, status: number, html: string): void {
  res.status(status).type("html").set({ "Cache-Control": "no-store", "X-Robots-Tag": "noindex" }).send(html);
}
