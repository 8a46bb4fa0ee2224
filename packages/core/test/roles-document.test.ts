import { describe, expect, it } from "vitest";
import { capabilitiesOf, decideAccess, parseRolesDocument } from "../src/access/roles-document.ts";

const DOCUMENT = `# Roles

## Capabilities

| capability | admin | marketer | support | operator | viewer | allows |
|---|---|---|---|---|---|---|
| \`members.manage\` | ✓ | | | | | members |
| \`settings.read\` | ✓ | ✓ | ✓ | ✓ | ✓ | read |

## Procedures

| procedure | needs |
|---|---|
| \`auth.me\` | public |
| \`system.status\` | signed_in |
| \`members.list\` | \`members.manage\` |
| \`settings.list\` | \`settings.read\` |
`;

describe("parseRolesDocument", () => {
  const table = parseRolesDocument(DOCUMENT);

  it("reads who holds each capability and what each procedure needs", () => {
    expect([...table.capabilities.get("members.manage")!]).toEqual(["admin"]);
    expect(table.capabilities.get("settings.read")!.size).toBe(5);
    expect(Object.fromEntries(table.procedures)).toEqual({
      "auth.me": "public",
      "system.status": "signed_in",
      "members.list": "members.manage",
      "settings.list": "settings.read",
    });
  });

  it("lists a role's capabilities", () => {
    expect(capabilitiesOf(table, "admin")).toEqual(["members.manage", "settings.read"]);
    expect(capabilitiesOf(table, "viewer")).toEqual(["settings.read"]);
  });

  it("rejects a procedure that needs an unknown capability", () => {
    expect(() => parseRolesDocument(DOCUMENT.replace("`settings.read` |\n", "`settings.write` |\n"))).toThrow(
      'docs/roles.md: procedure "settings.list" needs "settings.write", which is not in the capabilities table',
    );
  });

  it("rejects a cell that is neither ✓ nor empty, naming the line", () => {
    expect(() => parseRolesDocument(DOCUMENT.replace("| ✓ | | | | | members |", "| ✓ | x | | | | members |"))).toThrow(
      'docs/roles.md line 7: "x" under marketer must be ✓ or empty',
    );
  });

  it("rejects a procedure listed twice", () => {
    expect(() => parseRolesDocument(`${DOCUMENT}| \`auth.me\` | public |\n`)).toThrow('procedure "auth.me" is listed twice');
  });
});

describe("decideAccess", () => {
  const table = parseRolesDocument(DOCUMENT);

  it("lets anyone call a public procedure", () => {
    expect(decideAccess(table, "auth.me", null)).toBe("allowed");
  });

  it("asks for a sign-in before anything else", () => {
    expect(decideAccess(table, "system.status", null)).toBe("unauthenticated");
    expect(decideAccess(table, "members.list", null)).toBe("unauthenticated");
  });

  it("lets any role call a signed_in procedure", () => {
    expect(decideAccess(table, "system.status", "viewer")).toBe("allowed");
  });

  it("checks the capability", () => {
    expect(decideAccess(table, "members.list", "admin")).toBe("allowed");
    expect(decideAccess(table, "members.list", "marketer")).toBe("forbidden");
  });

  it("fails closed for a procedure the document does not list", () => {
    expect(decideAccess(table, "members.delete", "admin")).toBe("forbidden");
    expect(decideAccess(table, "members.delete", null)).toBe("unauthenticated");
  });
});
