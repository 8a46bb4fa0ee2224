import { describe, expect, it } from "vitest";
import { csvLine } from "../../src/imports/csv-line.ts";
import { sniffDelimiter } from "../../src/imports/sniff-delimiter.ts";

describe("CSV files", () => {
  it.each([
    ["id,email,name", ","],
    ["id;email;name", ";"],
    ["id\temail", "\t"],
    ['"a;b",c,d', ","],
    ["id", ","],
  ])("sniffs the delimiter of %j", (line, delimiter) => {
    expect(sniffDelimiter(line)).toBe(delimiter);
  });

  it("quotes every cell and defuses formulas, but not phone or negative numbers", () => {
    expect(csvLine(["3", 'say "hi"', "=HYPERLINK(1)", "@SUM(A1)", "+4915112345678", "-3.5", "-cmd"])).toBe(
      `"3","say ""hi""","'=HYPERLINK(1)","'@SUM(A1)","+4915112345678","-3.5","'-cmd"\r\n`,
    );
  });
});
