import pino, { type Logger } from "pino";
import type { Env } from "./env.ts";

/** JSON lines on stdout; secrets are redacted by path wherever they could appear. */
export function createLogger(env: Pick<Env, "HERALD_LOG_LEVEL">): Logger {
  return pino({
    level: env.HERALD_LOG_LEVEL,
    base: { service: "herald" },
    redact: ["password", "*.password", "token", "*.token", "headers.cookie", "headers.authorization"],
  });
}
