/** One Dockerfile instruction after line continuations are joined and comments dropped. */
export interface Instruction {
  /** 1-based line the instruction starts on, for messages. */
  line: number;
  keyword: string;
  args: string;
}

/** A `FROM … [AS name]` and the instructions up to the next FROM. */
export interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}

/** Splits a Dockerfile into stages. Covers the subset Herald's Dockerfile uses; heredocs and ARG are refused. */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of joinInstructions(text)) {
    if (instruction.keyword === "FROM") {
      const match = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!match) throw new Error(`Dockerfile line ${instruction.line}: cannot read FROM ${instruction.args}`);
      stages.push({ base: match[1]!, name: match[2] ?? String(stages.length), instructions: [] });
      continue;
    }
    if (instruction.keyword === "ARG") throw new Error(`Dockerfile line ${instruction.line}: ARG is not supported by the replay`);
    if (instruction.args.includes("<<")) {
      throw new Error(`Dockerfile line ${instruction.line}: heredocs are not supported by the replay`);
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile line ${instruction.line}: ${instruction.keyword} before the first FROM`);
    stage.instructions.push(instruction);
  }
  return stages;
}

function* joinInstructions(text: string): Generator<Instruction> {
  const lines = text.split("\n");
  let pending: { line: number; text: string } | null = null;
  for (const [index, raw] of lines.entries()) {
    const trimmed = raw.trim();
    // Comment lines are dropped even in the middle of a continued instruction, as Docker does.
    if (trimmed.startsWith("#") || (trimmed === "" && pending === null)) continue;
    const continued = trimmed.endsWith("\\");
    const part = continued ? trimmed.slice(0, -1) : trimmed;
    pending = pending ? { line: pending.line, text: `${pending.text} ${part}` } : { line: index + 1, text: part };
    if (continued) continue;
    const match = /^(\S+)\s*(.*)$/s.exec(pending.text)!;
    yield { line: pending.line, keyword: match[1]!.toUpperCase(), args: match[2]!.trim() };
    pending = null;
  }
  if (pending) throw new Error(`Dockerfile line ${pending.line}: the file ends inside a continued instruction`);
}

/** `["a", "b"]` (exec form) as an array; null for the shell form. */
export function parseExecForm(args: string): string[] | null {
  if (!args.startsWith("[")) return null;
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === "string")) {
    throw new Error(`expected a JSON array of strings, got ${args}`);
  }
  return parsed;
}

/** `--name=value` flags in front of the arguments, and what is left. */
export function takeFlags(args: string): { flags: Map<string, string>; rest: string } {
  const flags = new Map<string, string>();
  let rest = args;
  for (let match = /^--([a-z-]+)(?:=(\S+))?\s*/.exec(rest); match; match = /^--([a-z-]+)(?:=(\S+))?\s*/.exec(rest)) {
    flags.set(match[1]!, match[2] ?? "true");
    rest = rest.slice(match[0].length);
  }
  return { flags, rest };
}

/** `ENV A=1 B="two words"` or the legacy `ENV A 1`, as ordered pairs. Variable expansion is refused. */
export function parseEnv(args: string): Array<[string, string]> {
  if (args.includes("$")) throw new Error(`ENV ${args}: variable expansion is not supported by the replay`);
  const first = /^\S+/.exec(args)?.[0] ?? "";
  if (!first.includes("=")) return [[first, args.slice(first.length).trim()]];
  const pairs: Array<[string, string]> = [];
  for (const word of splitWords(args)) {
    const eq = word.indexOf("=");
    if (eq <= 0) throw new Error(`ENV ${args}: "${word}" is not NAME=value`);
    pairs.push([word.slice(0, eq), word.slice(eq + 1)]);
  }
  return pairs;
}

/** Whitespace-separated words; double or single quotes group, a backslash escapes. */
function splitWords(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | null = null;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && quote !== "'" && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (quote) {
      if (c === quote) quote = null;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} in ${text}`);
  if (inWord) words.push(word);
  return words;
}
