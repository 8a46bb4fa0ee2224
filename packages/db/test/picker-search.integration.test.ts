import { describe, expect, it } from "vitest";
import { createSegment, createTemplate, listSegments, listTemplates } from "../src/index.ts";
import { useTestDatabase } from "./support/test-database.ts";

// Names with LIKE's wildcards and its escape character in them: a search must take them literally.
const SEGMENTS = ["Back\\slash sale", "SALE 5X0", "Sale 50 off", "Sale_50% off", "sale-500 promo", "Winter"];
const TEMPLATES = [
  { key: "promo.sale-50", name: "Spring" },
  { key: "promo.sale_50", name: "Half%Price" },
  { key: "receipt", name: "Receipt" },
];

/** Every page of a keyset walk, concatenated. */
async function walk<T>(page: (after: string | null) => Promise<{ items: T[]; nextCursor: string | null }>): Promise<T[][]> {
  const pages: T[][] = [];
  let after: string | null = null;
  do {
    const next = await page(after);
    pages.push(next.items);
    after = next.nextCursor;
  } while (after !== null);
  return pages;
}

describe("picker search", () => {
  const test = useTestDatabase();

  async function seed() {
    if ((await listSegments(test.db.pool, { limit: 1 })).items.length > 0) return;
    for (const name of SEGMENTS) await createSegment(test.db.pool, { name, description: "", rule: { kind: "has_email" }, memberId: null });
    const memberId = (await test.db.pool.query("INSERT INTO herald.members (email, name, role, password_hash) VALUES ('s@example.com', 'S', 'marketer', 'x') RETURNING id::text")).rows[0].id;
    for (const t of TEMPLATES) {
      await createTemplate(test.db.pool, { ...t, channels: ["email"], defaultCategory: null, defaultLocale: "en", memberId, draft: { variables: [], content: {} } });
    }
  }

  const segmentNames = async (search: string) => (await listSegments(test.db.pool, { search, limit: 50 })).items.map((s) => s.name);
  const templateKeys = async (search: string) => (await listTemplates(test.db.pool, { search, limit: 50 })).items.map((t) => t.key);

  it("finds segments by any part of the name, ignoring case, with % _ and \\ taken literally", async () => {
    await seed();
    expect(await segmentNames("SALE")).toEqual(["Back\\slash sale", "SALE 5X0", "Sale 50 off", "Sale_50% off", "sale-500 promo"]);
    expect(await segmentNames("_50%")).toEqual(["Sale_50% off"]);
    // `_` would match any one character, so "e_5" would also find "Sale 50" and "sale-500".
    expect(await segmentNames("e_5")).toEqual(["Sale_50% off"]);
    expect(await segmentNames("50%")).toEqual(["Sale_50% off"]);
    expect(await segmentNames("\\s")).toEqual(["Back\\slash sale"]);
    expect(await segmentNames("%")).toEqual(["Sale_50% off"]);
    expect(await segmentNames("nothing like it")).toEqual([]);
  });

  it("walks a searched segment list by keyset, each match once and in name order", async () => {
    await seed();
    const pages = await walk((after) => listSegments(test.db.pool, { search: "sale", after, limit: 2 }));
    expect(pages.map((p) => p.map((s) => s.name))).toEqual([["Back\\slash sale", "SALE 5X0"], ["Sale 50 off", "Sale_50% off"], ["sale-500 promo"]]);
  });

  it("finds templates by key or name, ignoring case, wildcards literal, and walks them by keyset", async () => {
    await seed();
    expect(await templateKeys("PROMO")).toEqual(["promo.sale-50", "promo.sale_50"]);
    expect(await templateKeys("sale_")).toEqual(["promo.sale_50"]);
    expect(await templateKeys("half%")).toEqual(["promo.sale_50"]);
    expect(await templateKeys("receipt")).toEqual(["receipt"]);
    const pages = await walk((after) => listTemplates(test.db.pool, { search: "e", after, limit: 2 }));
    expect(pages.map((p) => p.map((t) => t.key))).toEqual([["promo.sale-50", "promo.sale_50"], ["receipt"]]);
  });
});
