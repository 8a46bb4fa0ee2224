import express, { type Request, type RequestHandler } from "express";

/** Both encodings RFC 8058 allows for the one-click POST; bodies are tiny, so the limit is too. */
export const urlencodedBody: RequestHandler = express.urlencoded({ extended: false, limit: "8kb" });
export const multipartBody: RequestHandler = express.raw({ type: "multipart/form-data", limit: "8kb" });

/** The fields of a form POST parsed by `urlencodedBody` or `multipartBody` (first value wins); empty for any other body. */
export function formFields(req: Request): Map<string, string> {
  if (Buffer.isBuffer(req.body) && req.is("multipart/form-data")) return parseMultipartFields(req.body, req.get("content-type") ?? "");
  const fields = new Map<string, string>();
  if (req.body && typeof req.body === "object" && !Buffer.isBuffer(req.body)) {
    for (const [key, value] of Object.entries(req.body as Record<string, unknown>)) {
      const first = Array.isArray(value) ? value[0] : value;
      if (typeof first === "string") fields.set(key, first);
    }
  }
  return fields;
}

/**
 * The text fields of a small multipart/form-data body. Lenient where RFC 8058's own example is
 * wrong: as printed, it declares `boundary=---FormBoundary…` yet delimits parts with the bare
 * boundary instead of `--` + boundary (errata 5117); both forms are accepted.
 */
export function parseMultipartFields(body: Buffer, contentType: string): Map<string, string> {
  const fields = new Map<string, string>();
  const match = /;\s*boundary=(?:"([^"]{1,200})"|([^;\s]{1,200}))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) return fields;
  const text = body.toString("utf8");
  for (const delimiter of [`--${boundary}`, boundary]) {
    const sections = text.split(delimiter);
    if (sections.length < 3) continue;
    for (const section of sections.slice(1)) {
      if (section.startsWith("--")) break;
      const part = section.replace(/^[ \t]*\r?\n/, "");
      const split = /\r?\n\r?\n/.exec(part);
      if (!split) continue;
      const headers = part.slice(0, split.index);
      const value = part.slice(split.index + split[0].length).replace(/\r?\n$/, "");
      const name = /^content-disposition:[^\r\n]*;\s*name="([^"]*)"/im.exec(headers)?.[1];
      if (name !== undefined && !fields.has(name)) fields.set(name, value);
    }
    return fields;
  }
  return fields;
}
