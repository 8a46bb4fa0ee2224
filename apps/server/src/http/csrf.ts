import type { RequestHandler } from "express";
import { sendError } from "./rest-errors.ts";

/**
 * Cookie-authenticated mutations only from our own pages: a JSON content type (which a
 * cross-site form cannot send without a CORS preflight we never grant) and, when the browser
 * says where it comes from, an Origin equal to the public URL's. Queries travel as GET and have
 * no side effects, so they need neither.
 */
export function csrfGuard(allowedOrigins: readonly string[]): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const origin = req.get("origin");
    if (origin !== undefined && !allowedOrigins.includes(origin)) {
      return sendError(res, 403, "bad_origin", `Requests from ${origin} are not allowed; expected ${allowedOrigins.join(" or ")}`);
    }
    if (!req.is("application/json")) {
      return sendError(res, 415, "unsupported_media_type", "Mutations must be sent as application/json");
    }
    next();
  };
}
