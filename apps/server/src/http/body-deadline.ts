import type { Request, RequestHandler } from "express";

/** How long any request but a CSV upload may take to arrive whole: Node's own default. */
export const BODY_DEADLINE_MS = 5 * 60_000;

/**
 * Node's requestTimeout is one number for the whole server. CSV uploads need up to an hour (a
 * 2 GiB file on a slow link), so the server's is raised to that, and this middleware gives every
 * other request Node's usual five minutes to arrive: a client trickling a small JSON body must
 * not hold a connection for an hour. Like Node, it answers 408 and closes the connection.
 */
export function bodyDeadline(ms: number, exempt: (req: Request) => boolean): RequestHandler {
  return (req, res, next) => {
    if (req.complete || exempt(req)) return next();
    const timer = setTimeout(() => {
      if (req.complete) return;
      if (!res.headersSent) res.writeHead(408, { connection: "close", "content-type": "text/plain" }).end("Request timeout");
      req.socket.destroy();
    }, ms);
    timer.unref();
    const clear = () => clearTimeout(timer);
    req.once("end", clear);
    req.once("close", clear);
    next();
  };
}
