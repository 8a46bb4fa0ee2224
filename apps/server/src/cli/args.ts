/** `--name value` and `--flag` pairs; anything else is an error naming the argument. */
export function parseFlags(argv: string[], known: Record<string, "value" | "flag">): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith("--") ? arg.slice(2).split(/=(.*)/s) : [undefined, undefined];
    if (!name || !(name in known)) throw new UsageError(`Unknown argument "${arg}"`);
    if (known[name] === "flag") {
      out[name] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value.startsWith("--")) throw new UsageError(`--${name} needs a value`);
    out[name] = value;
  }
  return out;
}

export class UsageError extends Error {
  override name = "UsageError";
}
