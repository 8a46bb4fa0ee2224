import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import pino, { type Logger } from "pino";
import { restErrorHandler } from "../../src/http/rest-errors.ts";
import { sesWebhookRoutes, type SesWebhookOptions } from "../../src/http/webhooks/ses-webhook.ts";
import type { AppServices } from "../../src/trpc/context.ts";

/** Log lines as parsed JSON, for asserting what a rejection logged. */
export function capturingLogger(): { log: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level: "debug" }, stream), lines };
}

/**
 * An Express app with only the SES webhook and the shared error handler (what app.ts will mount
 * at its root), served on a free port.
 */
export async function startSesWebhookApp(
  services: Pick<AppServices, "database" | "env" | "log">,
  options: SesWebhookOptions,
): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.use(sesWebhookRoutes(services, options));
  app.use(restErrorHandler(services.log));
  const server: Server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
