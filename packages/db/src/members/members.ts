import type { Role } from "@herald/core";
import type { Db } from "../client-types.ts";
import type { PrismaClient } from "../generated/prisma/client.ts";

/** A dashboard account as stored, password hash included: never hand it to a router as-is. */
export interface MemberRecord {
  id: string;
  email: string;
  name: string;
  role: Role;
  passwordHash: string;
  disabledAt: Date | null;
  createdAt: Date;
  lastSignInAt: Date | null;
}

type Row = {
  id: bigint;
  email: string;
  name: string;
  role: string;
  passwordHash: string;
  disabledAt: Date | null;
  createdAt: Date;
  lastSignInAt: Date | null;
};

export function toMemberRecord(row: Row): MemberRecord {
  return { ...row, id: row.id.toString(), role: row.role as Role };
}

/** A member row as hand-written SQL reads it (`id::text`, snake_case columns). */
export interface MemberColumns {
  id: string;
  email: string;
  name: string;
  role: string;
  password_hash: string;
  disabled_at: Date | null;
  created_at: Date;
  last_sign_in_at: Date | null;
}

export function memberFromColumns(row: MemberColumns): MemberRecord {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as Role,
    passwordHash: row.password_hash,
    disabledAt: row.disabled_at,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

export async function findMemberByEmail(db: Db, email: string): Promise<MemberRecord | null> {
  const row = await db.member.findUnique({ where: { email: email.toLowerCase() } });
  return row && toMemberRecord(row);
}

export async function findMemberById(db: Db, id: string): Promise<MemberRecord | null> {
  const row = await db.member.findUnique({ where: { id: BigInt(id) } });
  return row && toMemberRecord(row);
}

export async function listMembers(db: Db): Promise<MemberRecord[]> {
  const rows = await db.member.findMany({ orderBy: { createdAt: "asc" } });
  return rows.map(toMemberRecord);
}

export async function countActiveAdmins(db: Db): Promise<number> {
  return db.member.count({ where: { role: "admin", disabledAt: null } });
}

export interface NewMember {
  email: string;
  name: string;
  role: Role;
  passwordHash: string;
}

export async function createMember(db: Db, member: NewMember): Promise<MemberRecord> {
  return toMemberRecord(await db.member.create({ data: { ...member, email: member.email.toLowerCase() } }));
}

// Any constant: serialises concurrent "first admin" requests so exactly one can win.
const FIRST_MEMBER_LOCK = 727_274_010;

/** Creates the first member only while there is none; null when someone got there first. */
export async function createFirstMember(prisma: PrismaClient, member: NewMember): Promise<MemberRecord | null> {
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${FIRST_MEMBER_LOCK})`;
    if ((await tx.member.count()) > 0) return null;
    return createMember(tx, member);
  });
}

export async function hasAnyMember(db: Db): Promise<boolean> {
  return (await db.member.findFirst({ select: { id: true } })) !== null;
}

export async function setMemberRole(db: Db, id: string, role: Role): Promise<MemberRecord> {
  return toMemberRecord(await db.member.update({ where: { id: BigInt(id) }, data: { role } }));
}

/** Disabling also ends every session of the member, at once. */
export async function setMemberDisabled(prisma: PrismaClient, id: string, disabled: boolean): Promise<MemberRecord> {
  return prisma.$transaction(async (tx) => {
    const row = await tx.member.update({ where: { id: BigInt(id) }, data: { disabledAt: disabled ? new Date() : null } });
    if (disabled) await tx.session.deleteMany({ where: { memberId: row.id } });
    return toMemberRecord(row);
  });
}

export async function recordSignIn(db: Db, id: string): Promise<void> {
  await db.member.update({ where: { id: BigInt(id) }, data: { lastSignInAt: new Date() } });
}

export async function setMemberPassword(db: Db, id: string, passwordHash: string): Promise<void> {
  await db.member.update({ where: { id: BigInt(id) }, data: { passwordHash } });
}
