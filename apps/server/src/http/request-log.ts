import type { RequestHandler } from "express";
import type { Logger } from "pino";

// Paths whose last segment is a bearer secret: an unsubscribe or tracking token manages a user's
// preferences, an invite token makes an account. They never reach the logs.
const SECRET_PATHS = /^(\/u|\/t\/o|\/t\/c|\/invite)\/[^/]+/;

/** The path as it may be logged: token segments replaced. */
export function loggablePath(path: string): string {
  return path.replace(SECRET_PATHS, "$1/:token");
}

/** One line per request. The path only (query strings may carry tokens), with token segments redacted. */
export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? "error" : "debug";
      log[level]({ method: req.method, path: loggablePath(req.path), status: res.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
    });
    next();
  };
}
