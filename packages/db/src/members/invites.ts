import type { Role } from "@herald/core";
import type { Db } from "../client-types.ts";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { createMember, type MemberRecord } from "./members.ts";

export interface InviteRecord {
  id: string;
  email: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
  invitedBy: string | null;
}

type Row = { id: bigint; email: string; role: string; createdAt: Date; expiresAt: Date; invitedBy: bigint | null };

function toInvite(row: Row): InviteRecord {
  return {
    id: row.id.toString(),
    email: row.email,
    role: row.role as Role,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    invitedBy: row.invitedBy?.toString() ?? null,
  };
}

export interface NewInvite {
  email: string;
  role: Role;
  tokenHash: string;
  invitedBy: string;
  expiresAt: Date;
}

export async function createInvite(db: Db, invite: NewInvite): Promise<InviteRecord> {
  const row = await db.memberInvite.create({
    data: { ...invite, email: invite.email.toLowerCase(), invitedBy: BigInt(invite.invitedBy) },
  });
  return toInvite(row);
}

const usable = (now: Date) => ({ acceptedAt: null, revokedAt: null, expiresAt: { gt: now } });

export async function listPendingInvites(db: Db, now = new Date()): Promise<InviteRecord[]> {
  const rows = await db.memberInvite.findMany({ where: usable(now), orderBy: { createdAt: "desc" } });
  return rows.map(toInvite);
}

/** The invite behind a one-time link, or null when unknown, used, revoked or expired. */
export async function findUsableInvite(db: Db, tokenHash: string, now = new Date()): Promise<InviteRecord | null> {
  const row = await db.memberInvite.findFirst({ where: { tokenHash, ...usable(now) } });
  return row && toInvite(row);
}

export async function revokeInvite(db: Db, id: string): Promise<boolean> {
  const { count } = await db.memberInvite.updateMany({
    where: { id: BigInt(id), acceptedAt: null, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count === 1;
}

export type AcceptInviteResult =
  | { kind: "accepted"; member: MemberRecord }
  | { kind: "unusable" }
  | { kind: "email_taken" };

/** Spends the invite and creates its member in one transaction: a link works exactly once. */
export async function acceptInvite(
  prisma: PrismaClient,
  input: { tokenHash: string; name: string; passwordHash: string },
  now = new Date(),
): Promise<AcceptInviteResult> {
  return prisma.$transaction(async (tx) => {
    const invite = await tx.memberInvite.findFirst({ where: { tokenHash: input.tokenHash, ...usable(now) } });
    if (!invite) return { kind: "unusable" };
    if (await tx.member.findUnique({ where: { email: invite.email } })) return { kind: "email_taken" };
    // The conditional update is the claim: of two concurrent accepts, one sees count 0.
    const { count } = await tx.memberInvite.updateMany({
      where: { id: invite.id, ...usable(now) },
      data: { acceptedAt: now },
    });
    if (count !== 1) return { kind: "unusable" };
    const member = await createMember(tx, {
      email: invite.email,
      name: input.name,
      role: invite.role as Role,
      passwordHash: input.passwordHash,
    });
    return { kind: "accepted", member };
  });
}
