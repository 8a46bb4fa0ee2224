import { timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { sendError } from "./rest-errors.ts";

/**
 * Guards a route with a bearer secret from configuration. An unset secret turns the route
 * off (404) rather than open: the seed's `Bearer undefined` comparison can never happen.
 */
export function requireBearerSecret(secret: string | undefined, route: string, log: Logger): RequestHandler {
  if (!secret) {
    log.info({ route }, `${route} is off: its secret is not configured`);
    return (_req, res) => sendError(res, 404, "not_found", "Not found");
  }
  const expected = Buffer.from(`Bearer ${secret}`);
  return (req, res, next) => {
    const given = Buffer.from(req.get("authorization") ?? "");
    if (given.length === expected.length && timingSafeEqual(given, expected)) return next();
    res.setHeader("WWW-Authenticate", "Bearer");
    sendError(res, 401, "unauthorized", "A valid bearer token is required");
  };
}
