import type { Prisma, PrismaClient } from "./generated/prisma/client.ts";

/** A Prisma client or an interactive transaction: every query function takes one first. */
export type Db = PrismaClient | Prisma.TransactionClient;
