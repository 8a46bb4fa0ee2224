import type { ApiKeyRecord, ApiKeyScope } from "@herald/db";
import type { RequestHandler, Response } from "express";
import { AppError } from "../../errors.ts";
import type { AppServices } from "../../trpc/context.ts";
import { authenticateApiKey, scopeAllows } from "../../auth/api-keys.ts";
import { hitCounter, touchApiKey } from "@herald/db";

/** The authenticated key of a REST request (kept in res.locals by apiKeyAuth). */
export function apiKeyOf(res: Response): ApiKeyRecord {
  const key = res.locals.apiKey as ApiKeyRecord | undefined;
  if (!key) throw new Error("route mounted without apiKeyAuth");
  return key;
}

/**
 * Bearer API keys: unknown or revoked → 401, a scope too small → 403, over the key's own
 * per-minute rate → 429 with Retry-After.
 */
export function apiKeyAuth(services: AppServices): RequestHandler {
  const touched = new Map<string, number>();
  return async (req, res, next) => {
    try {
      const header = req.get("authorization") ?? "";
      const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
      const key = token ? await authenticateApiKey(services.database.pool, token) : null;
      if (!key) throw new AppError("UNAUTHORIZED", "A valid API key is required: Authorization: Bearer hk_…");
      if (key.ratePerMinute) {
        const counter = await hitCounter(services.database.prisma, `apikey:${key.id}`, 60_000);
        if (counter.count > key.ratePerMinute) {
          throw new AppError("TOO_MANY_REQUESTS", `This key is limited to ${key.ratePerMinute} requests a minute`, {
            retryAfterSeconds: Math.max(1, Math.ceil(counter.resetInMs / 1000)),
            apiCode: "rate_limited",
          });
        }
      }
      if (Date.now() - (touched.get(key.id) ?? 0) > 60_000) {
        touched.set(key.id, Date.now());
        await touchApiKey(services.database.pool, key.id);
      }
      res.locals.apiKey = key;
      next();
    } catch (error) {
      next(error);
    }
  };
}

export function requireScope(scope: ApiKeyScope): RequestHandler {
  return (_req, res, next) => {
    const key = apiKeyOf(res);
    if (!scopeAllows(key.scope, scope)) {
      return next(new AppError("FORBIDDEN", `This route needs a key with the "${scope}" scope; this key has "${key.scope}"`));
    }
    next();
  };
}
