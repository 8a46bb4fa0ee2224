import { findSessionMember, type MemberRecord } from "@herald/db";
import type { Request } from "express";
import { SESSION_COOKIE, readCookie } from "../../auth/session-cookie.ts";
import { hashToken } from "../../auth/tokens.ts";
import { AppError } from "../../errors.ts";
import type { AppServices } from "../../trpc/context.ts";

/** The capability (docs/roles.md) that uploads, maps, runs and reads imports. */
export const IMPORT_CAPABILITY = "audience.import";

/**
 * The member behind the request's session cookie, when they may import: the same session the
 * dashboard's tRPC calls carry, checked against the same roles table.
 */
export async function requireImporter(services: AppServices, req: Request): Promise<MemberRecord> {
  const token = readCookie(req, SESSION_COOKIE);
  const member = token ? await findSessionMember(services.database.pool, hashToken(token)) : null;
  if (!member) throw new AppError("UNAUTHORIZED", "Sign in to continue", { apiCode: "unauthorized" });
  if (!services.access.capabilities.get(IMPORT_CAPABILITY)?.has(member.role)) {
    throw new AppError("FORBIDDEN", `Your role (${member.role}) may not import (${IMPORT_CAPABILITY})`, { apiCode: "forbidden" });
  }
  return member;
}

/**
 * The upload is cookie-authenticated and not JSON, so /trpc's guard does not fit it: an Origin
 * is required (browsers send one on every POST) and must be the dashboard's own.
 */
export function requireOwnOrigin(req: Request, allowedOrigins: readonly string[]): void {
  const origin = req.get("origin");
  if (origin === undefined) {
    throw new AppError("FORBIDDEN", "Uploads must come from the dashboard: the request has no Origin header", { apiCode: "bad_origin" });
  }
  if (!allowedOrigins.includes(origin)) {
    throw new AppError("FORBIDDEN", `Uploads from ${origin} are not allowed; expected ${allowedOrigins.join(" or ")}`, { apiCode: "bad_origin" });
  }
}
