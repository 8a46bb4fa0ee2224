import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { parseRolesDocument, type AccessTable } from "@herald/core";

/** docs/roles.md: the single source of who may call which procedure. */
export const ROLES_DOCUMENT = fileURLToPath(new URL("../../../../docs/roles.md", import.meta.url));

export function loadAccessTable(file = ROLES_DOCUMENT): AccessTable {
  return parseRolesDocument(fs.readFileSync(file, "utf8"));
}
