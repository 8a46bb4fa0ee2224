import { describe, expect, it } from "vitest";
import { EmailSchema, PasswordSchema, plainText } from "../src/validation/text.ts";

describe("plainText", () => {
  const name = plainText(10);

  it("trims and accepts ordinary text", () => {
    expect(name.parse("  Ada  ")).toBe("Ada");
  });

  it.each([
    ["a NUL byte", "a\u0000b", "must not contain control characters or line breaks"],
    ["a line break", "a\nb", "must not contain control characters or line breaks"],
    ["an escape", "a\u001bb", "must not contain control characters or line breaks"],
    ["too long", "x".repeat(11), "must be at most 10 characters"],
    ["empty", "   ", "must not be empty"],
  ])("rejects %s", (_label, value, message) => {
    const result = name.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});

describe("EmailSchema", () => {
  it("lower-cases the address", () => {
    expect(EmailSchema.parse(" Ada@Example.COM ")).toBe("ada@example.com");
  });

  it("rejects what is not an address", () => {
    expect(EmailSchema.safeParse("ada").error?.issues[0]?.message).toBe("must be an email address");
  });
});

describe("PasswordSchema", () => {
  it("asks for at least 12 characters", () => {
    expect(PasswordSchema.safeParse("short").error?.issues[0]?.message).toBe("must be at least 12 characters");
    expect(PasswordSchema.safeParse("twelve chars").success).toBe(true);
  });
});
