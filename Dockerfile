# Herald: one image for every role (HERALD_ROLE=api|worker|all). It needs DATABASE_URL; the
# embedded Postgres is for `pnpm start` on a checkout, not for containers.
#
# tests/docker/dockerfile-replay.test.ts replays the build steps below outside Docker: keep to
# FROM, WORKDIR, COPY, ENV, RUN and metadata instructions, and tell that test about any new
# step that touches the OS rather than the project.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# pnpm 12 is a native binary from npm; corepack would need its signature keys disabled.
RUN npm i -g pnpm@12.21.0

# Manifests first, so the dependency layer is rebuilt only when a manifest or the lockfile
# changes. prisma/ comes along because postinstall generates the Prisma client from it, and
# patches/ because the install applies them (pnpm-workspace.yaml's patchedDependencies).
COPY package.json pnpm-workspace.yaml pnpm-lock.yaml ./
COPY patches/ patches/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/core/package.json packages/core/
COPY packages/db/package.json packages/db/
COPY prisma/ prisma/
RUN pnpm install --frozen-lockfile

COPY . .
RUN pnpm build

FROM node:24-bookworm-slim AS runtime
WORKDIR /app
# Node runs the server's TypeScript as it is (type stripping, no compile step), so the whole
# workspace comes along: sources, node_modules, docs/roles.md, prisma/migrations, apps/web/dist.
COPY --from=build /app /app
ENV HERALD_MODE=production NODE_ENV=production
USER node
EXPOSE 3000
# The slim image has no curl. /healthz answers as soon as the HTTP server listens; migrations run
# before that, hence the start period. A worker-only container serves no HTTP: compose disables
# this check for it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "apps/server/src/main.ts"]
