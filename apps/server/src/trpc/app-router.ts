import { analyticsRouter } from "./routers/analytics.ts";
import { apiKeysRouter } from "./routers/api-keys.ts";
import { auditRouter } from "./routers/audit.ts";
import { broadcastsRouter } from "./routers/broadcasts.ts";
import { categoriesRouter } from "./routers/categories.ts";
import { deadLettersRouter } from "./routers/dead-letters.ts";
import { importsRouter } from "./routers/imports.ts";
import { notificationsRouter } from "./routers/notifications.ts";
import { operationsRouter } from "./routers/operations.ts";
import { providersRouter } from "./routers/providers.ts";
import { sandboxRouter } from "./routers/sandbox.ts";
import { segmentsRouter } from "./routers/segments.ts";
import { authRouter } from "./routers/auth.ts";
import { membersRouter } from "./routers/members.ts";
import { notificationTypesRouter } from "./routers/notification-types.ts";
import { settingsRouter } from "./routers/settings.ts";
import { setupRouter } from "./routers/setup.ts";
import { systemRouter } from "./routers/system.ts";
import { templatesRouter } from "./routers/templates.ts";
import { usersRouter } from "./routers/users.ts";
import { router } from "./trpc.ts";

export const appRouter = router({
  setup: setupRouter,
  auth: authRouter,
  members: membersRouter,
  settings: settingsRouter,
  audit: auditRouter,
  system: systemRouter,
  apiKeys: apiKeysRouter,
  deadLetters: deadLettersRouter,
  notifications: notificationsRouter,
  sandbox: sandboxRouter,
  providers: providersRouter,
  templates: templatesRouter,
  broadcasts: broadcastsRouter,
  imports: importsRouter,
  segments: segmentsRouter,
  analytics: analyticsRouter,
  users: usersRouter,
  categories: categoriesRouter,
  notificationTypes: notificationTypesRouter,
  operations: operationsRouter,
});

/** The dashboard imports this type, and nothing else, from the server. */
export type AppRouter = typeof appRouter;
