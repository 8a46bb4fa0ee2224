import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

/** What the upload route knows before the first byte is read. */
export interface UploadMeta {
  fileName: string;
  createdBy: string | null;
  /** What reading the file learned, asked once its records are exhausted. */
  measured: () => { byteSize: number; delimiter: string };
  /** How many data rows to keep on the import for mapping and preview. */
  sampleRows: number;
}

/** An upload that is stored and waits for its mapping. */
export interface StoredUpload {
  id: string;
  header: string[];
  sample: string[][];
  totalRows: number;
  byteSize: number;
}

// jsonb cannot hold U+0000; a NUL inside a cell is noise from a broken export, never data.
function clean(cell: string): string {
  return cell.includes("\0") ? cell.replaceAll("\0", "\uFFFD") : cell;
}

// COPY's text format: a backslash starts an escape. JSON.stringify already turned every tab,
// newline and other control character into an escape of its own, so only backslashes remain.
function copyLine(importId: string, rowNumber: number, cells: readonly string[]): string {
  return `${importId}\t${rowNumber}\t${JSON.stringify(cells.map(clean)).replaceAll("\\", "\\\\")}\n`;
}

const COPY_CHUNK_CHARS = 64 * 1024;

/**
 * Stores an uploaded file: the first record is its header, every later one becomes a row of
 * `herald.import_rows` through COPY, as the records arrive (backpressure reaches the socket, so
 * memory holds one chunk, never the file). All of it is one transaction: when `records` throws
 * (the size limit, a malformed file) nothing at all is written.
 */
export async function storeUpload(pool: pg.Pool, meta: UploadMeta, records: AsyncIterable<string[]>): Promise<StoredUpload> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO herald.imports (file_name, byte_size, delimiter, header, total_rows, created_by)
       VALUES ($1, 0, ',', '{}', 0, $2) RETURNING id::text`,
      [meta.fileName, meta.createdBy],
    );
    const id = rows[0]!.id;
    let header: string[] | null = null;
    const sample: string[][] = [];
    let totalRows = 0;

    async function* lines(): AsyncGenerator<string> {
      let pending = "";
      for await (const record of records) {
        if (!header) {
          header = record.map(clean);
          continue;
        }
        totalRows += 1;
        if (sample.length < meta.sampleRows) sample.push(record.map(clean));
        // The header is row 1, as a spreadsheet numbers it.
        pending += copyLine(id, totalRows + 1, record);
        if (pending.length >= COPY_CHUNK_CHARS) {
          yield pending;
          pending = "";
        }
      }
      if (pending) yield pending;
    }

    await pipeline(Readable.from(lines(), { objectMode: false }), client.query(copyFrom("COPY herald.import_rows (import_id, row_number, fields) FROM STDIN")));
    const { byteSize, delimiter } = meta.measured();
    await client.query(
      "UPDATE herald.imports SET header = $2, sample = $3::jsonb, total_rows = $4, byte_size = $5, delimiter = $6 WHERE id = $1",
      [id, header ?? [], JSON.stringify(sample), totalRows, byteSize, delimiter],
    );
    await client.query("COMMIT");
    return { id, header: header ?? [], sample, totalRows, byteSize };
  } catch (error) {
    // A COPY cut off mid-stream can leave the connection mid-protocol: roll back if it still
    // answers, and never hand it back to the pool.
    broken = true;
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release(broken);
  }
}
