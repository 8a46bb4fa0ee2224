import { describe, expect, it } from "vitest";
import {
  archiveTemplateVersion,
  createTemplate,
  findTemplate,
  listTemplates,
  listTemplateVersions,
  loadPinnedTemplateVersions,
  publishTemplateDraft,
  saveTemplateDraft,
  startDraftFromVersion,
} from "../src/index.ts";
import { useTestDatabase } from "./support/test-database.ts";

const body = (subject: string) => ({ variables: [], content: { en: { email: { subject, html: "<p>x</p>" } } } });
const accept = () => [];

describe("template versions", () => {
  const test = useTestDatabase();
  let memberId: string;

  async function member() {
    if (memberId) return memberId;
    const { rows } = await test.db.pool.query(
      "INSERT INTO herald.members (email, name, role, password_hash) VALUES ('t@example.com', 'Tess', 'marketer', 'x') RETURNING id::text",
    );
    return (memberId = rows[0].id);
  }

  async function template(key: string) {
    const created = await createTemplate(test.db.pool, {
      key,
      name: key,
      channels: ["email"],
      defaultCategory: null,
      defaultLocale: "en",
      memberId: await member(),
      draft: body("draft"),
    });
    expect(created).toBe(true);
  }

  it("numbers concurrent publishes 1..N without gaps or duplicates", async () => {
    await template("race");
    const pool = test.db.pool;
    const outcomes = [];
    for (let round = 0; round < 5; round += 1) {
      await saveTemplateDraft(pool, "race", body(`v${round}`), memberId);
      // Two publishers at once: the row lock lets one publish and the other find no draft.
      outcomes.push(...(await Promise.all([publishTemplateDraft(pool, "race", memberId, accept), publishTemplateDraft(pool, "race", memberId, accept)])));
    }
    const published = outcomes.filter((o) => o.kind === "published").map((o) => (o.kind === "published" ? o.version : 0));
    expect(published.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(outcomes.filter((o) => o.kind === "no_draft")).toHaveLength(5);
    expect((await findTemplate(pool, "race"))?.currentVersion).toBe(5);
  });

  it("refuses publishing when the check reports problems, leaving the draft a draft", async () => {
    await template("refused");
    const outcome = await publishTemplateDraft(test.db.pool, "refused", memberId, () => [{ message: "nope" }]);
    expect(outcome).toEqual({ kind: "refused", problems: [{ message: "nope" }] });
    expect((await listTemplateVersions(test.db.pool, "refused")).map((v) => v.status)).toEqual(["draft"]);
  });

  it("freezes the default locale into a version at publish and loads pinned bodies in one query", async () => {
    await template("frozen");
    await publishTemplateDraft(test.db.pool, "frozen", memberId, accept);
    await test.db.pool.query("UPDATE herald.templates SET default_locale = 'de' WHERE key = 'frozen'");
    const [pinned] = await loadPinnedTemplateVersions(test.db.pool, [{ key: "frozen", version: 1 }]);
    expect(pinned).toMatchObject({ key: "frozen", version: 1, defaultLocale: "en", body: body("draft") });
    expect(await loadPinnedTemplateVersions(test.db.pool, [{ key: "frozen", version: 9 }])).toEqual([]);
  });

  it("keeps drafts to one, archives only non-current versions, and pages the list", async () => {
    await template("paged");
    await publishTemplateDraft(test.db.pool, "paged", memberId, accept);
    expect(await startDraftFromVersion(test.db.pool, "paged", 1, memberId, false)).toBe("started");
    expect(await startDraftFromVersion(test.db.pool, "paged", 1, memberId, false)).toBe("draft_exists");
    await expect(
      test.db.pool.query("INSERT INTO herald.template_versions (template_key, status) VALUES ('paged', 'draft')"),
    ).rejects.toThrow(/template_versions_one_draft_idx/);
    await publishTemplateDraft(test.db.pool, "paged", memberId, accept);
    expect(await archiveTemplateVersion(test.db.pool, "paged", 2)).toBe("current");
    expect(await archiveTemplateVersion(test.db.pool, "paged", 1)).toBe("archived");
    expect(await archiveTemplateVersion(test.db.pool, "paged", 1)).toBe("not_found");
    // Archived versions still load for notifications that pinned them.
    expect(await loadPinnedTemplateVersions(test.db.pool, [{ key: "paged", version: 1 }])).toHaveLength(1);

    const first = await listTemplates(test.db.pool, { limit: 2 });
    expect(first.items.map((t) => t.key)).toEqual(["frozen", "paged"]);
    const second = await listTemplates(test.db.pool, { limit: 2, after: first.nextCursor });
    expect(second.items.map((t) => t.key)).toEqual(["race", "refused"]);
    expect(second.nextCursor).toBeNull();
    expect((await listTemplates(test.db.pool, { limit: 10, search: "RACE" })).items.map((t) => t.key)).toEqual(["race"]);
    expect((await listTemplates(test.db.pool, { limit: 10, search: "%" })).items).toEqual([]);
  });
});
