import fs from "node:fs";
import path from "node:path";
import express, { type Router } from "express";

const API_PREFIXES = ["/trpc", "/api", "/healthz", "/readyz", "/webhooks", "/metrics"];

/** The built dashboard at `/`, with client routes falling back to index.html. */
export function spaRoutes(distDir: string): Router {
  const router = express.Router();
  const index = path.join(distDir, "index.html");
  router.use(express.static(distDir, { index: false, maxAge: "1h", setHeaders: noCacheForHtml }));
  router.get("/{*splat}", (req, res, next) => {
    if (API_PREFIXES.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return next();
    if (!fs.existsSync(index)) {
      res.status(503).type("text/plain").send("The dashboard is not built: run `pnpm build` (pnpm start does it for you).");
      return;
    }
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(index);
  });
  return router;
}

function noCacheForHtml(res: express.Response, file: string): void {
  if (file.endsWith(".html")) res.setHeader("Cache-Control", "no-cache");
  else if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
}
