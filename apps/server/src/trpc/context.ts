import type { AccessTable } from "@herald/core";
import { findSessionMember, type Database, type MemberRecord } from "@herald/db";
import type { Request, Response } from "express";
import type { Logger } from "pino";
import type { Env } from "../env.ts";
import type { ProviderSpec } from "../providers/provider-kinds.ts";
import type { ProviderRegistry } from "../providers/provider-registry.ts";
import type { SettingsCache } from "../settings/settings-service.ts";
import { hashToken } from "../auth/tokens.ts";
import { SESSION_COOKIE, readCookie } from "../auth/session-cookie.ts";

/** What every procedure is given: process-wide services plus who is calling. */
export interface AppServices {
  database: Database;
  env: Env;
  log: Logger;
  access: AccessTable;
  version: string;
  postgresVersion: string;
  settings: SettingsCache;
  providers: ProviderRegistry & { refresh?: () => Promise<void>; specs?: () => ProviderSpec[] };
  /** Wakes this process's outbox pump after an ingest (a no-op when it runs no workers). */
  nudgePump: () => void;
}

export interface Context extends AppServices {
  req: Request;
  res: Response;
  member: MemberRecord | null;
  /** Hash of the session token behind `member` (so sign-out and rotation can delete it). */
  sessionId: string | null;
  ip: string | null;
}

export async function createContext(services: AppServices, req: Request, res: Response): Promise<Context> {
  const token = readCookie(req, SESSION_COOKIE);
  const sessionId = token ? hashToken(token) : null;
  const member = sessionId ? await findSessionMember(services.database.pool, sessionId) : null;
  return { ...services, req, res, member, sessionId: member ? sessionId : null, ip: req.ip ?? null };
}
