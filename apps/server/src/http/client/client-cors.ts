import type { RequestHandler } from "express";
import type { Logger } from "pino";

/** The origins of HERALD_CLIENT_CORS_ORIGINS (comma-separated), normalised; bad entries are logged and left out. */
export function parseCorsOrigins(value: string | undefined, log: Logger): Set<string> {
  const origins = new Set<string>();
  for (const entry of (value ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    let origin: string | null = null;
    try {
      const url = new URL(entry);
      if ((url.protocol === "https:" || url.protocol === "http:") && url.pathname === "/" && !url.search && !url.hash) origin = url.origin;
    } catch {
      origin = null;
    }
    if (origin) origins.add(origin);
    else log.error({ entry }, "HERALD_CLIENT_CORS_ORIGINS: ignoring an entry that is not an origin such as https://app.example.com");
  }
  return origins;
}

/**
 * CORS for the client API: only listed origins get Access-Control-Allow-Origin, never with
 * credentials (the API reads a bearer token, no cookie). Preflights are answered here, before
 * authentication, since browsers send them without the Authorization header.
 */
export function clientCors(origins: ReadonlySet<string>): RequestHandler {
  return (req, res, next) => {
    res.vary("Origin");
    const origin = req.get("origin");
    const allowed = origin !== undefined && origins.has(origin);
    if (allowed) res.setHeader("Access-Control-Allow-Origin", origin);
    if (req.method !== "OPTIONS") return next();
    if (allowed) {
      res.setHeader("Access-Control-Allow-Methods", "GET, POST");
      res.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type");
      res.setHeader("Access-Control-Max-Age", "600");
    }
    res.status(204).end();
  };
}
