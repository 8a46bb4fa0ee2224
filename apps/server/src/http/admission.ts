import type { RequestHandler, Response } from "express";
import { sendError } from "./rest-errors.ts";

/**
 * /api/v1 requests one process works on at once. Each takes a connection of the process's pool
 * (10) a few times; more would wait in the pool's queue, where a burst's tail waited past the
 * pool's 10 s connect timeout and was answered 503 "the database is unavailable" with the
 * database well (the chaos suite's load-burst: 1,538 of 2,000 events). 64 keeps the wait far
 * below that on a loaded 2-core machine.
 */
export const MAX_REQUESTS_IN_FLIGHT = 64;

/** The REST API's refusal: 429, which its clients (and Herald's SDK) retry after a second. */
function overloaded(res: Response): void {
  res.setHeader("Retry-After", "1");
  sendError(res, 429, "overloaded", "Herald is working on as many requests as it can take; try again in a second");
}

/**
 * Beyond `limit` requests in flight, answers with `refuse` (429 `overloaded` and Retry-After by
 * default) at once, before the API key is read or anything else touches the database, so a
 * burst's refusals cost almost nothing and hold no memory while they wait.
 */
export function admission(limit = MAX_REQUESTS_IN_FLIGHT, refuse: (res: Response) => void = overloaded): RequestHandler {
  let inFlight = 0;
  return (_req, res, next) => {
    if (inFlight >= limit) return refuse(res);
    inFlight++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      inFlight--;
    };
    // "close" also covers a client that went away before its answer.
    res.once("finish", release);
    res.once("close", release);
    next();
  };
}
