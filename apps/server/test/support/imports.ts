import { expect } from "vitest";
import { trpcMutation, trpcQuery } from "./trpc-http.ts";

export interface UploadOptions {
  cookie?: string;
  /** The request's Origin; null sends none. Default: the server's public URL's, as the dashboard's. */
  origin?: string | null;
  contentType?: string;
  name?: string;
  headers?: Record<string, string>;
}

/** POST /files/imports as the dashboard sends it: the file as the body, text/csv, same origin. */
export async function uploadCsv(server: { url: string; env: { publicUrl: URL } }, body: NonNullable<RequestInit["body"]>, options: UploadOptions = {}) {
  const origin = options.origin === undefined ? server.env.publicUrl.origin : options.origin;
  const response = await fetch(`${server.url}/files/imports?name=${encodeURIComponent(options.name ?? "people.csv")}`, {
    method: "POST",
    headers: {
      "content-type": options.contentType ?? "text/csv",
      ...(origin ? { origin } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
    body,
    // A stream body (the large-file test) is sent as it is read.
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  const json = (await response.json()) as any;
  return { status: response.status, body: json };
}

/** Starts an import with `mapping` and waits until the worker has finished it. */
export async function runImport(baseUrl: string, cookie: string, id: string, mapping: unknown, timeoutMs = 60_000) {
  const started = await trpcMutation(baseUrl, "imports.start", { id, mapping }, { cookie });
  expect(started.error).toBeNull();
  return waitForImport(baseUrl, cookie, id, timeoutMs);
}

export async function waitForImport(baseUrl: string, cookie: string, id: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data, error } = await trpcQuery(baseUrl, "imports.get", { id }, { cookie });
    if (error) throw new Error(error.message);
    if (data.status === "done" || data.status === "failed") return data;
    if (Date.now() > deadline) throw new Error(`import ${id} is still ${data.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A CSV line, quoting every cell as a careful exporter does. */
export function csvRow(cells: readonly string[]): string {
  return `${cells.map((c) => `"${c.replace(/"/g, '""')}"`).join(",")}\n`;
}
