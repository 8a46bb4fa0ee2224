import { Readable } from "node:stream";
import { MAX_IMPORT_COLUMNS, sniffDelimiter, type ImportDelimiter } from "@herald/core";
import { CsvError, parse } from "csv-parse";
import { AppError } from "../errors.ts";
import { formatBytes } from "../http/rest-errors.ts";

/** A record longer than this is no CSV row but a file read with the wrong delimiter or a stray quote. */
const MAX_RECORD_CHARS = 1024 * 1024;

/** An uploaded body read as CSV records, and what reading it learned. */
export interface CsvUpload {
  /** The header first, then every row; throws an AppError when the file cannot be read. */
  records: AsyncIterable<string[]>;
  bytes(): number;
  delimiter(): ImportDelimiter;
}

function refuse(message: string): AppError {
  return new AppError("BAD_REQUEST", message, { apiCode: "invalid_request" });
}

/** What the first bytes say when the file is no UTF-8 text at all. */
function sniffEncoding(first: Buffer): string | null {
  if (first.subarray(0, 4).equals(Buffer.from("PK\x03\x04", "latin1"))) return "This is a spreadsheet workbook (.xlsx), not CSV: save it as “CSV UTF-8” and upload that";
  if ((first[0] === 0xff && first[1] === 0xfe) || (first[0] === 0xfe && first[1] === 0xff)) return "The file is UTF-16 text: save it as “CSV UTF-8” and upload that";
  if (first.subarray(0, 1024).includes(0)) return "The file contains NUL bytes, so it is not UTF-8 text: save it as “CSV UTF-8” and upload that";
  return null;
}

/**
 * Reads a request body as CSV without holding it: bytes are counted against `maxBytes` as they
 * arrive, decoded as strict UTF-8 (a byte-order mark is dropped), and parsed record by record
 * with the delimiter its first line uses. Rows may be shorter or longer than the header; the
 * row check decides about each.
 */
export function readCsvUpload(body: AsyncIterable<Buffer>, maxBytes: number): CsvUpload {
  let bytes = 0;
  let delimiter: ImportDelimiter = ",";

  async function* text(): AsyncGenerator<string> {
    const decoder = new TextDecoder("utf-8", { fatal: true });
    let first = true;
    for await (const chunk of body) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        throw new AppError("PAYLOAD_TOO_LARGE", `The file is larger than the import limit of ${formatBytes(maxBytes)} (HERALD_IMPORT_MAX_MIB)`, {
          apiCode: "payload_too_large",
        });
      }
      if (first) {
        const problem = sniffEncoding(chunk);
        if (problem) throw refuse(problem);
        first = false;
      }
      try {
        yield decoder.decode(chunk, { stream: true });
      } catch {
        throw refuse(`The file is not UTF-8 text (near byte ${bytes - chunk.length}): save it as “CSV UTF-8” and upload that`);
      }
    }
    yield decoder.decode();
  }

  async function* records(): AsyncGenerator<string[]> {
    const source = text();
    // The delimiter comes from the first line, so text is held back until one is complete.
    let head = "";
    let done = false;
    while (!/[\r\n]/.test(head)) {
      const next = await source.next();
      if (next.done) {
        done = true;
        break;
      }
      head += next.value;
      if (head.length > MAX_RECORD_CHARS) break;
    }
    delimiter = sniffDelimiter(head.split(/\r?\n|\r/, 1)[0] ?? "");

    const parser = parse({ delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, max_record_size: MAX_RECORD_CHARS });
    async function* rest(): AsyncGenerator<string> {
      yield head;
      if (!done) yield* source;
    }
    const input = Readable.from(rest(), { objectMode: false });
    input.on("error", (error) => parser.destroy(error));
    input.pipe(parser);

    let count = 0;
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        if (count === 0) {
          if (record.every((cell) => cell.trim() === "")) throw refuse("The first row must name the columns, but it is empty");
          if (record.length > MAX_IMPORT_COLUMNS) throw refuse(`The file has ${record.length} columns; an import reads at most ${MAX_IMPORT_COLUMNS}`);
        }
        count += 1;
        yield record;
      }
    } catch (error) {
      if (error instanceof CsvError) throw refuse(`The file is not valid CSV: ${error.message}`);
      throw error;
    } finally {
      input.destroy();
    }
    if (count === 0) throw refuse("The file is empty");
    if (count === 1) throw refuse("The file has a header but no rows");
  }

  return { records: records(), bytes: () => bytes, delimiter: () => delimiter };
}
