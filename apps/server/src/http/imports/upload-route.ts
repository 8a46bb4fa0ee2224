import { IMPORT_SAMPLE_ROWS, plainText } from "@herald/core";
import { appendAudit, storeUpload } from "@herald/db";
import type { Request, Response } from "express";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { readCsvUpload } from "../../imports/csv-upload.ts";
import type { AppServices } from "../../trpc/context.ts";
import { formatBytes } from "../rest-errors.ts";
import { requireImporter, requireOwnOrigin } from "./importer-session.ts";

const QuerySchema = z.object({ name: plainText(255).default("upload.csv") });

/**
 * `POST /files/imports?name=<file name>` with the CSV file itself as the body (`text/csv`):
 * streamed through the parser into the staging table, never held whole. Answers 201 with the
 * import's id, header and row count; the mapping and the rest go through tRPC.
 */
export function uploadHandler(services: AppServices, allowedOrigins: readonly string[]) {
  return async (req: Request, res: Response) => {
    requireOwnOrigin(req, allowedOrigins);
    const member = await requireImporter(services, req);
    if (!req.is("text/csv")) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the file itself as the body, with Content-Type: text/csv", { apiCode: "unsupported_media_type" });
    }
    const query = QuerySchema.safeParse(req.query);
    if (!query.success) throw new AppError("BAD_REQUEST", `name: ${query.error.issues[0]?.message}`, { apiCode: "invalid_request" });
    const maxBytes = services.env.HERALD_IMPORT_MAX_MIB * 1024 * 1024;
    const declared = Number(req.get("content-length") ?? NaN);
    if (declared > maxBytes) {
      // Refused before a byte is read; the connection closes rather than draining the body.
      res.set("Connection", "close");
      throw new AppError("PAYLOAD_TOO_LARGE", `The file (${formatBytes(declared)}) is larger than the import limit of ${formatBytes(maxBytes)} (HERALD_IMPORT_MAX_MIB)`, {
        apiCode: "payload_too_large",
      });
    }

    const upload = readCsvUpload(req, maxBytes);
    let stored;
    try {
      stored = await storeUpload(
        services.database.pool,
        {
          fileName: query.data.name,
          createdBy: member.id,
          sampleRows: IMPORT_SAMPLE_ROWS,
          measured: () => ({ byteSize: upload.bytes(), delimiter: upload.delimiter() }),
        },
        upload.records,
      );
    } catch (error) {
      // The rest of a refused body is not worth reading.
      if (error instanceof AppError) res.set("Connection", "close");
      throw error;
    }
    await appendAudit(services.database.prisma, {
      actorMemberId: member.id,
      actor: member.email,
      action: "imports.upload",
      target: `import:${stored.id}`,
      detail: { fileName: query.data.name, rows: stored.totalRows, bytes: stored.byteSize },
      ip: req.ip ?? null,
    });
    res.status(201).json({
      import: { id: stored.id, fileName: query.data.name, byteSize: stored.byteSize, totalRows: stored.totalRows, header: stored.header },
    });
  };
}
