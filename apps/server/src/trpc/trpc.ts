import { decideAccess } from "@herald/core";
import { TRPCError, initTRPC } from "@trpc/server";
import { ZodError } from "zod";
import { APP_ERROR_STATUS, AppError } from "../errors.ts";
import { findJsonProblem } from "../http/rest/validate.ts";
import type { Context } from "./context.ts";

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error, ctx }) {
    if (error.cause instanceof ZodError) {
      const fields = error.cause.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
      return {
        ...shape,
        message: fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join("; "),
        data: { ...shape.data, fields, stack: undefined },
      };
    }
    if (error.code === "INTERNAL_SERVER_ERROR") {
      ctx?.log.error({ err: error.cause ?? error, path: shape.data.path }, "procedure failed");
      return { ...shape, message: "Internal error: the details are in the server log", data: { ...shape.data, stack: undefined } };
    }
    // An AppError's details (a refused publish's problems, say) are for the caller to show.
    const details = error.cause instanceof AppError ? error.cause.details : undefined;
    return { ...shape, data: { ...shape.data, stack: undefined, ...(details === undefined ? {} : { details }) } };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every procedure goes through this: docs/roles.md decides who may call it (a procedure missing
 * from the table fails closed), inputs with control characters are refused, and AppErrors
 * become the matching tRPC error.
 */
export const procedure = t.procedure.use(async ({ ctx, path, next, getRawInput }) => {
  const decision = decideAccess(ctx.access, path, ctx.member?.role ?? null);
  if (decision === "unauthenticated") throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue" });
  if (decision === "forbidden") {
    throw new TRPCError({ code: "FORBIDDEN", message: `Your role (${ctx.member?.role}) may not do this (${path})` });
  }
  // Postgres refuses NUL in text and jsonb (a search with one was a 500), and no field means a
  // control character: one 400 naming the field, before any schema, as the REST API answers.
  const problem = findJsonProblem(await getRawInput());
  if (problem) {
    const fields = [{ path: problem.path || "(input)", message: problem.message }];
    const message = `${fields[0]!.path}: ${problem.message}`;
    throw new TRPCError({ code: "BAD_REQUEST", message, cause: new AppError("BAD_REQUEST", message, { details: { fields } }) });
  }
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: APP_ERROR_STATUS[cause.code].trpc, message: cause.message, cause });
  }
  return result;
});

/** A procedure whose context is known to carry a signed-in member (the access table says so). */
export const memberProcedure = procedure.use(({ ctx, next }) => {
  if (!ctx.member) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue" });
  return next({ ctx: { ...ctx, member: ctx.member } });
});
