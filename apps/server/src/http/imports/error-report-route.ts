import { once } from "node:events";
import { csvLine } from "@herald/core";
import { findImport, listImportErrors } from "@herald/db";
import type { Request, Response } from "express";
import { AppError } from "../../errors.ts";
import type { AppServices } from "../../trpc/context.ts";
import { requireImporter } from "./importer-session.ts";

const PAGE_ROWS = 2000;

/**
 * `GET /files/imports/:id/errors.csv`: every refused row with its number and reason, then its
 * cells as uploaded, so the file can be fixed and imported again. Streamed a page at a time.
 */
export function errorReportHandler(services: AppServices) {
  return async (req: Request, res: Response) => {
    await requireImporter(services, req);
    const id = String(req.params.id ?? "");
    const found = /^\d{1,18}$/.test(id) ? await findImport(services.database.pool, id) : null;
    if (!found) throw new AppError("NOT_FOUND", `There is no import ${id}`, { apiCode: "not_found" });

    const base = found.fileName.replace(/\.csv$/i, "").replace(/[^\w.-]+/g, "_").slice(0, 100) || "import";
    res.status(200);
    res.set({
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${base}-errors.csv"`,
      "Cache-Control": "no-store",
    });
    // A byte-order mark, so spreadsheet programs read the file as UTF-8.
    res.write(`\uFEFF${csvLine(["row", "reason", ...found.header])}`);
    let afterRow = 0;
    for (;;) {
      const page = await listImportErrors(services.database.pool, id, { afterRow, limit: PAGE_ROWS });
      if (page.length === 0) break;
      const text = page.map((e) => csvLine([String(e.row), e.reason, ...e.fields])).join("");
      if (!res.write(text)) await Promise.race([once(res, "drain"), once(res, "close")]);
      if (res.destroyed) return;
      afterRow = page[page.length - 1]!.row;
    }
    res.end();
  };
}
