import {
  appendAudit,
  createSession,
  deleteSession,
  findMemberByEmail,
  hitCounter,
  peekCounter,
  recordSignIn,
  resetCounter,
  type MemberRecord,
} from "@herald/db";
import { AppError } from "../errors.ts";
import { getSetting } from "../settings/settings-service.ts";
import type { Context } from "../trpc/context.ts";
import { DECOY_HASH, verifyPassword } from "./password.ts";
import { clearSessionCookie, setSessionCookie } from "./session-cookie.ts";
import { hashToken, newToken } from "./tokens.ts";

const THROTTLE_WINDOW_MS = 15 * 60_000;
const WRONG_CREDENTIALS = "Wrong email or password";

/** Starts a fresh session for `member`, replacing whatever session the request carried. */
export async function startSession(ctx: Context, member: MemberRecord): Promise<void> {
  if (ctx.sessionId) await deleteSession(ctx.database.prisma, ctx.sessionId);
  const ttlHours = await getSetting<number>(ctx.database, ctx.env, "auth.sessionTtlHours");
  const token = newToken();
  await createSession(ctx.database.prisma, {
    id: hashToken(token),
    memberId: member.id,
    expiresAt: new Date(Date.now() + ttlHours * 3_600_000),
    userAgent: ctx.req.get("user-agent")?.slice(0, 500) ?? null,
    ip: ctx.ip,
  });
  await recordSignIn(ctx.database.prisma, member.id);
  setSessionCookie(ctx.res, token, ttlHours * 3600, cookiePolicy(ctx));
}

/**
 * Throttled per address (every attempt) and per account (failures), with the same answer and
 * the same cost whether or not the account exists.
 */
export async function signIn(ctx: Context, email: string, password: string): Promise<MemberRecord> {
  const db = ctx.database.prisma;
  const accountKey = `signin:account:${email}`;
  const perAddress = await getSetting<number>(ctx.database, ctx.env, "auth.signInAttemptsPerAddress");
  const perAccount = await getSetting<number>(ctx.database, ctx.env, "auth.signInFailuresPerAccount");

  const address = await hitCounter(db, `signin:ip:${ctx.ip ?? "unknown"}`, THROTTLE_WINDOW_MS);
  const account = await peekCounter(db, accountKey, THROTTLE_WINDOW_MS);
  if (address.count > perAddress || account.count >= perAccount) {
    const wait = Math.max(address.count > perAddress ? address.resetInMs : 0, account.count >= perAccount ? account.resetInMs : 0);
    throw new AppError(
      "TOO_MANY_REQUESTS",
      `Too many sign-in attempts. Try again in ${Math.ceil(wait / 60_000)} minute(s).`,
      { retryAfterSeconds: Math.ceil(wait / 1000) },
    );
  }

  const member = await findMemberByEmail(db, email);
  const valid = await verifyPassword(password, member?.passwordHash ?? DECOY_HASH);
  if (!member || !valid) {
    await hitCounter(db, accountKey, THROTTLE_WINDOW_MS);
    await appendAudit(db, { actorMemberId: null, actor: email, action: "auth.sign_in_failed", ip: ctx.ip });
    throw new AppError("UNAUTHORIZED", WRONG_CREDENTIALS);
  }
  if (member.disabledAt) throw new AppError("FORBIDDEN", "This account is disabled. Ask an admin to enable it.");

  await resetCounter(db, accountKey);
  await startSession(ctx, member);
  await appendAudit(db, { actorMemberId: member.id, actor: member.email, action: "auth.sign_in", ip: ctx.ip });
  return member;
}

export async function signOut(ctx: Context): Promise<void> {
  if (ctx.sessionId) await deleteSession(ctx.database.prisma, ctx.sessionId);
  clearSessionCookie(ctx.res, cookiePolicy(ctx));
}

function cookiePolicy(ctx: Context) {
  return { secure: ctx.env.publicUrl.protocol === "https:" };
}
