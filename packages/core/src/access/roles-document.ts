import { PUBLIC, ROLES, SIGNED_IN, type Role } from "./roles.ts";

/** What docs/roles.md says: which roles hold each capability, and what each procedure needs. */
export interface AccessTable {
  capabilities: ReadonlyMap<string, ReadonlySet<Role>>;
  procedures: ReadonlyMap<string, string>;
}

export type AccessDecision = "allowed" | "unauthenticated" | "forbidden";

const CAPABILITY_HEADING = /^##\s+Capabilities\s*$/i;
const PROCEDURE_HEADING = /^##\s+Procedures\s*$/i;
const NAME = /^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)+$/;

/**
 * Parses the two tables of docs/roles.md. The document is the single source of who may do
 * what: the tRPC middleware and the role-matrix test both read it, so it cannot drift from code.
 */
export function parseRolesDocument(markdown: string): AccessTable {
  const capabilities = new Map<string, Set<Role>>();
  const procedures = new Map<string, string>();
  let section: "capabilities" | "procedures" | null = null;
  let header: string[] | null = null;

  markdown.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    const where = `docs/roles.md line ${index + 1}`;
    if (line.startsWith("#")) {
      section = CAPABILITY_HEADING.test(line) ? "capabilities" : PROCEDURE_HEADING.test(line) ? "procedures" : null;
      header = null;
      return;
    }
    if (!section || !line.startsWith("|")) return;
    const cells = line.slice(1, line.endsWith("|") ? -1 : undefined).split("|").map((c) => c.trim().replace(/`/g, ""));
    if (!header) {
      header = cells.map((c) => c.toLowerCase());
      return;
    }
    if (cells.every((c) => /^:?-+:?$/.test(c))) return;
    const [name = ""] = cells;
    if (section === "capabilities") {
      if (!NAME.test(name)) throw new Error(`${where}: "${name}" is not a capability name like "members.manage"`);
      if (capabilities.has(name)) throw new Error(`${where}: capability "${name}" is listed twice`);
      const holders = new Set<Role>();
      for (const role of ROLES) {
        const column = header.indexOf(role);
        if (column < 0) throw new Error(`${where}: the capabilities table has no "${role}" column`);
        const cell = cells[column] ?? "";
        if (cell === "✓" || cell.toLowerCase() === "yes") holders.add(role);
        else if (cell !== "" && cell !== "—" && cell !== "-") {
          throw new Error(`${where}: "${cell}" under ${role} must be ✓ or empty`);
        }
      }
      capabilities.set(name, holders);
    } else {
      const needs = cells[1] ?? "";
      if (!NAME.test(name)) throw new Error(`${where}: "${name}" is not a procedure path like "members.list"`);
      if (procedures.has(name)) throw new Error(`${where}: procedure "${name}" is listed twice`);
      procedures.set(name, needs);
    }
  });

  for (const [procedure, needs] of procedures) {
    if (needs !== PUBLIC && needs !== SIGNED_IN && !capabilities.has(needs)) {
      throw new Error(`docs/roles.md: procedure "${procedure}" needs "${needs}", which is not in the capabilities table`);
    }
  }
  return { capabilities, procedures };
}

/** Capabilities a role holds, for the dashboard to hide what it may not do. */
export function capabilitiesOf(table: AccessTable, role: Role): string[] {
  return [...table.capabilities].filter(([, roles]) => roles.has(role)).map(([name]) => name);
}

/**
 * The one access rule. A procedure missing from the table is refused for everyone: forgetting
 * to document a procedure must fail closed (and fails the role-matrix test).
 */
export function decideAccess(table: AccessTable, procedure: string, role: Role | null): AccessDecision {
  const needs = table.procedures.get(procedure);
  if (needs === undefined) return role ? "forbidden" : "unauthenticated";
  if (needs === PUBLIC) return "allowed";
  if (!role) return "unauthenticated";
  if (needs === SIGNED_IN) return "allowed";
  return table.capabilities.get(needs)?.has(role) ? "allowed" : "forbidden";
}
