import { createBrowserRouter, Navigate } from "react-router";
import { DashboardLayout } from "./dashboard-layout.tsx";
import { RequireMember } from "./require-member.tsx";
import { RouteError } from "./route-error.tsx";
import { BroadcastDetailRoute } from "./routes/broadcasts/broadcast-detail.tsx";
import { BroadcastNewRoute } from "./routes/broadcasts/broadcast-new.tsx";
import { BroadcastsRoute } from "./routes/broadcasts/broadcasts.tsx";
import { AnalyticsRoute } from "./routes/analytics.tsx";
import { DeadLettersRoute } from "./routes/delivery/dead-letters.tsx";
import { AlertsRoute } from "./routes/delivery/alerts.tsx";
import { DeliveryIndex, DeliveryLayout } from "./routes/delivery/delivery-layout.tsx";
import { DeliveryOverviewRoute } from "./routes/delivery/delivery-overview.tsx";
import { OrphanWebhooksRoute } from "./routes/delivery/orphan-webhooks.tsx";
import { ImportDetailRoute } from "./routes/imports-detail.tsx";
import { ImportsRoute } from "./routes/imports.tsx";
import { SandboxOutboxRoute } from "./routes/delivery/sandbox-outbox.tsx";
import { InviteRoute } from "./routes/invite.tsx";
import { NotFoundRoute } from "./routes/not-found.tsx";
import { SegmentDetailRoute } from "./routes/segments/segment-detail.tsx";
import { SegmentNewRoute } from "./routes/segments/segment-new.tsx";
import { SegmentsRoute } from "./routes/segments/segments.tsx";
import { ApiKeysRoute } from "./routes/settings/api-keys.tsx";
import { CategoriesRoute } from "./routes/settings/categories.tsx";
import { CategoryEditRoute } from "./routes/settings/category-edit.tsx";
import { NotificationTypeEditRoute } from "./routes/settings/notification-type-edit.tsx";
import { NotificationTypesRoute } from "./routes/settings/notification-types.tsx";
import { RateLimitsRoute } from "./routes/settings/rate-limits.tsx";
import { AuditLogRoute } from "./routes/settings/audit-log.tsx";
import { GeneralSettingsRoute } from "./routes/settings/general.tsx";
import { MembersRoute } from "./routes/settings/members.tsx";
import { ProvidersRoute } from "./routes/settings/providers.tsx";
import { SettingsIndex } from "./routes/settings/settings-index.tsx";
import { SettingsLayout } from "./routes/settings/settings-layout.tsx";
import { SetupRoute } from "./routes/setup.tsx";
import { SignInRoute } from "./routes/sign-in.tsx";
import { TemplateContentRoute } from "./routes/templates/template-content.tsx";
import { TemplateHistoryRoute } from "./routes/templates/template-history.tsx";
import { TemplateLayout } from "./routes/templates/template-layout.tsx";
import { TemplatesRoute } from "./routes/templates/templates.tsx";
import { UsersRoute } from "./routes/users.tsx";
import { SetupGate } from "./setup-gate.tsx";

export const router = createBrowserRouter([
  {
    element: <SetupGate />,
    errorElement: <RouteError />,
    children: [
      { path: "setup", element: <SetupRoute /> },
      { path: "sign-in", element: <SignInRoute /> },
      { path: "invite/:token", element: <InviteRoute /> },
      {
        element: <RequireMember />,
        children: [
          {
            element: <DashboardLayout />,
            children: [
              { index: true, element: <Navigate to="/broadcasts" replace /> },
              { path: "analytics", element: <AnalyticsRoute /> },
              { path: "broadcasts", element: <BroadcastsRoute /> },
              { path: "broadcasts/new", element: <BroadcastNewRoute /> },
              { path: "broadcasts/:id", element: <BroadcastDetailRoute /> },
              { path: "segments", element: <SegmentsRoute /> },
              { path: "segments/new", element: <SegmentNewRoute /> },
              { path: "segments/:id", element: <SegmentDetailRoute /> },
              { path: "templates", element: <TemplatesRoute /> },
              {
                path: "templates/:key",
                element: <TemplateLayout />,
                children: [
                  { index: true, element: <TemplateContentRoute /> },
                  { path: "history", element: <TemplateHistoryRoute /> },
                ],
              },
              { path: "users", element: <UsersRoute /> },
              { path: "imports", element: <ImportsRoute /> },
              { path: "imports/:id", element: <ImportDetailRoute /> },
              {
                path: "delivery",
                element: <DeliveryLayout />,
                children: [
                  { index: true, element: <DeliveryIndex /> },
                  { path: "overview", element: <DeliveryOverviewRoute /> },
                  { path: "dead-letters", element: <DeadLettersRoute /> },
                  { path: "sandbox", element: <SandboxOutboxRoute /> },
                  { path: "orphaned-webhooks", element: <OrphanWebhooksRoute /> },
                  { path: "alerts", element: <AlertsRoute /> },
                ],
              },
              {
                path: "settings",
                element: <SettingsLayout />,
                children: [
                  { index: true, element: <SettingsIndex /> },
                  { path: "categories", element: <CategoriesRoute /> },
                  { path: "categories/new", element: <CategoryEditRoute /> },
                  { path: "categories/:key", element: <CategoryEditRoute /> },
                  { path: "notification-types", element: <NotificationTypesRoute /> },
                  { path: "notification-types/new", element: <NotificationTypeEditRoute /> },
                  { path: "notification-types/:type", element: <NotificationTypeEditRoute /> },
                  { path: "rate-limits", element: <RateLimitsRoute /> },
                  { path: "members", element: <MembersRoute /> },
                  { path: "api-keys", element: <ApiKeysRoute /> },
                  { path: "providers", element: <ProvidersRoute /> },
                  { path: "general", element: <GeneralSettingsRoute /> },
                  { path: "audit-log", element: <AuditLogRoute /> },
                ],
              },
              { path: "*", element: <NotFoundRoute /> },
            ],
          },
        ],
      },
    ],
  },
]);
