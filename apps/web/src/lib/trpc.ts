import type { AppRouter } from "@herald/server";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCContext, type TRPCOptionsProxy } from "@trpc/tanstack-react-query";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** The typed procedure tree, for deriving input and output types with `inferInput`/`inferOutput`. */
export type Api = TRPCOptionsProxy<AppRouter>;

export function createApiClient() {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: "/trpc",
        // The session lives in an httpOnly cookie; "include" keeps it attached when the dashboard
        // is served from a different origin than the API (vite dev server, reverse proxies).
        fetch: (url, options) => fetch(url, { ...options, credentials: "include" }),
      }),
    ],
  });
}
