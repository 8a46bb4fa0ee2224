import fs from "node:fs";

/** Herald's version, from the repository's package.json. */
export const VERSION: string = (
  JSON.parse(fs.readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }
).version;
