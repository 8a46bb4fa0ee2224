import { countOutboxBacklog, ingestEvents, type IngestResult } from "@herald/db";
import express, { type Router } from "express";
import { AppError } from "../../errors.ts";
import type { AppServices } from "../../trpc/context.ts";
import { requireScope } from "./rest-context.ts";
import { EventBatchSchema, EventSchema } from "./schemas.ts";
import { describeIssues, findJsonProblem, issuesOf, jsonBody, parseOrThrow, parseSchemaOrThrow } from "./validate.ts";

/**
 * POST /events and /events/batch. Both go through herald.ingest_events, the same SQL function
 * as herald.emit. Ingest never adds a job itself: the rows are the outbox, and the pump (woken
 * here when this process runs workers) turns them into batch jobs.
 */
export function eventRoutes(services: AppServices): Router {
  const router = express.Router();
  const backlog = backlogGuard(services);

  router.post("/events", express.json({ limit: "1mb" }), requireScope("events"), async (req, res) => {
    const event = parseOrThrow(EventSchema, jsonBody(req));
    await backlog();
    const [result] = await ingestEvents(services.database.pool, [event]);
    services.nudgePump();
    const r = result!;
    if (r.outcome === "unknown_type") throw unknownType(event.type);
    if (r.outcome === "conflict") {
      throw new AppError("CONFLICT", `Event "${event.eventId}" for user "${event.userId}" was already received with another payload`, {
        apiCode: "event_conflict",
      });
    }
    res.status(r.outcome === "created" ? 202 : 200).json({ eventId: r.eventId, notifications: r.notifications });
  });

  router.post("/events/batch", express.json({ limit: "5mb" }), requireScope("events"), async (req, res) => {
    // Only the envelope here: each event is checked on its own below, so one bad event (a NUL
    // in its data, say) never blocks the others.
    const { events } = parseSchemaOrThrow(EventBatchSchema, jsonBody(req));
    await backlog();
    const checked = events.map((raw, i) => {
      const problem = findJsonProblem(raw);
      if (problem) return { error: describeIssues([{ path: problem.path, message: problem.message }]), raw, index: i };
      const parsed = EventSchema.safeParse(raw);
      return parsed.success ? { event: parsed.data, index: i } : { error: describeIssues(issuesOf(parsed.error)), raw, index: i };
    });
    const valid = checked.filter((c): c is { event: typeof EventSchema._output; index: number } => "event" in c);
    const ingested = valid.length ? await ingestEvents(services.database.pool, valid.map((c) => c.event)) : [];
    services.nudgePump();
    const byIndex = new Map<number, IngestResult>(valid.map((c, i) => [c.index, ingested[i]!]));
    res.status(200).json({
      results: checked.map((c) => {
        const result = byIndex.get(c.index);
        if (!result) {
          const eventId = (c as { raw?: { eventId?: unknown } }).raw?.eventId;
          return { eventId: typeof eventId === "string" ? eventId : null, status: "invalid", error: (c as { error: string }).error };
        }
        if (result.outcome === "unknown_type") return { eventId: result.eventId, status: "unknown_type", error: unknownType((c as { event: { type: string } }).event.type).message };
        if (result.outcome === "conflict") return { eventId: result.eventId, status: "conflict", error: "already received with another payload" };
        return { eventId: result.eventId, status: result.outcome === "created" ? "created" : "replayed", notifications: result.notifications };
      }),
    });
  });

  return router;
}

function unknownType(type: string): AppError {
  return new AppError("UNPROCESSABLE", `There is no notification type "${type}": create it with PUT /api/v1/notification-types/${type}`, {
    apiCode: "unknown_type",
  });
}

/**
 * 429 with Retry-After while the outbox holds more than the configured backlog: the count is
 * bounded and taken at most once a second per process.
 */
function backlogGuard(services: AppServices): () => Promise<void> {
  let checkedAt = 0;
  let over = false;
  return async () => {
    if (Date.now() - checkedAt > 1000) {
      checkedAt = Date.now();
      const limit = (await services.settings.get()).get("dispatch.outboxBacklogLimit") as number;
      over = (await countOutboxBacklog(services.database.pool, limit)) > limit;
    }
    if (over) {
      throw new AppError("TOO_MANY_REQUESTS", "Herald's outbox is over its backlog limit; retry shortly", {
        retryAfterSeconds: 5,
        apiCode: "outbox_backlog",
      });
    }
  };
}
