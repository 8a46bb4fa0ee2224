import { describe, expect, it } from "vitest";
import { parseMultipartFields } from "../src/http/links/form-fields.ts";

// RFC 8058 §8.3's multipart one-click body, as corrected by its errata and as printed.

describe("multipart one-click bodies", () => {
  it("reads the corrected example (boundary -Form…, delimiter ---Form…)", () => {
    const body = '---FormBoundaryjWmhtjORrn\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n---FormBoundaryjWmhtjORrn--\r\n';
    expect(parseMultipartFields(Buffer.from(body), "multipart/form-data; boundary=-FormBoundaryjWmhtjORrn")).toEqual(
      new Map([["List-Unsubscribe", "One-Click"]]),
    );
  });

  it("reads the example as printed, whose delimiter lacks the leading --", () => {
    const body = '---FormBoundaryjWmhtjORrn\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n---FormBoundaryjWmhtjORrn--\r\n';
    expect(parseMultipartFields(Buffer.from(body), 'multipart/form-data; boundary="---FormBoundaryjWmhtjORrn"').get("List-Unsubscribe")).toBe("One-Click");
  });

  it("reads several parts, LF line endings, and keeps the first of repeated names", () => {
    const body = ["--b", 'Content-Disposition: form-data; name="a"', "", "1", "--b", 'Content-Disposition: form-data; name="a"', "", "2", "--b", 'Content-Disposition: form-data; name="List-Unsubscribe"', "", "One-Click", "--b--", ""].join("\n");
    expect(parseMultipartFields(Buffer.from(body), "multipart/form-data; boundary=b")).toEqual(new Map([["a", "1"], ["List-Unsubscribe", "One-Click"]]));
  });

  it("answers no fields for a body without the boundary or without one declared", () => {
    expect(parseMultipartFields(Buffer.from("List-Unsubscribe=One-Click"), "multipart/form-data; boundary=zzz").size).toBe(0);
    expect(parseMultipartFields(Buffer.from("--b\r\n\r\nx\r\n--b--"), "multipart/form-data").size).toBe(0);
  });
});
