import { EmailSchema, PasswordSchema, RoleSchema, plainText } from "@herald/core";
import { appendAudit, createFirstMember, createMember, findMemberByEmail, hasAnyMember } from "@herald/db";
import { z } from "zod";
import { hashPassword } from "../auth/password.ts";
import { UsageError, parseFlags } from "./args.ts";
import { withCliContext } from "./bootstrap.ts";
import { readSecret } from "./read-secret.ts";

export const MEMBER_CREATE_USAGE = `pnpm herald member:create --email EMAIL --name NAME [--role ROLE]
  Creates a dashboard member (the first one is always an admin). The password is read from
  stdin: typed without echo on a terminal, or piped (e.g. from a secret store).
  ROLE: admin | marketer | support | operator | viewer (default: admin)`;

const InputSchema = z.object({ email: EmailSchema, name: plainText(200), role: RoleSchema.default("admin") });

export async function memberCreate(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, { email: "value", name: "value", role: "value" });
  const parsed = InputSchema.safeParse(flags);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--${issue.path.join(".")}: ${issue.message}`);
  }
  const input = parsed.data;
  const password = PasswordSchema.safeParse(await readSecret(`Password for ${input.email}: `));
  if (!password.success) throw new UsageError(`password: ${password.error.issues[0]?.message}`);

  await withCliContext(async ({ database }) => {
    const db = database.prisma;
    if (await findMemberByEmail(db, input.email)) throw new UsageError(`${input.email} is already a member`);
    const passwordHash = await hashPassword(password.data);
    const first = !(await hasAnyMember(db));
    const member = first
      ? await createFirstMember(db, { ...input, role: "admin", passwordHash })
      : await createMember(db, { ...input, passwordHash });
    if (!member) throw new UsageError("Another first admin was created at the same moment; run the command again");
    await appendAudit(db, {
      actorMemberId: null,
      actor: "cli",
      action: first ? "members.create_first_admin" : "members.create",
      target: member.email,
      detail: { role: member.role },
    });
    process.stdout.write(`Created ${member.role} ${member.email}${first && input.role !== "admin" ? " (the first member is always an admin)" : ""}\n`);
  });
}
