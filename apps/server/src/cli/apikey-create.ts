import { appendAudit } from "@herald/db";
import { z } from "zod";
import { plainText } from "@herald/core";
import { createApiKey } from "../auth/api-keys.ts";
import { UsageError, parseFlags } from "./args.ts";
import { withCliContext } from "./bootstrap.ts";

export const APIKEY_CREATE_USAGE = `pnpm herald apikey:create --name NAME --scope events|read|admin [--rate-per-minute N]
  Mints an API key and prints it once, alone on the last line of stdout. Only its hash is stored.`;

const InputSchema = z.object({
  name: plainText(200),
  scope: z.enum(["events", "read", "admin"]),
  "rate-per-minute": z.coerce.number().int().min(1).max(1_000_000).optional(),
});

export async function apikeyCreate(argv: string[]): Promise<void> {
  const parsed = InputSchema.safeParse(parseFlags(argv, { name: "value", scope: "value", "rate-per-minute": "value" }));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--${issue.path.join(".")}: ${issue.message}`);
  }
  const input = parsed.data;
  await withCliContext(async ({ database }) => {
    const { key, record } = await createApiKey(database.pool, {
      name: input.name,
      scope: input.scope,
      ratePerMinute: input["rate-per-minute"] ?? null,
      createdBy: null,
    });
    await appendAudit(database.prisma, {
      actorMemberId: null,
      actor: "cli",
      action: "api_keys.create",
      target: record.prefix,
      detail: { name: record.name, scope: record.scope },
    });
    process.stderr.write(`Created ${record.scope} key "${record.name}" (${record.prefix}…). It is shown once:\n`);
    process.stdout.write(`${key}\n`);
  });
}
