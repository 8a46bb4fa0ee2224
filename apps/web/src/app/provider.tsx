import { QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { createQueryClient } from "../lib/query-client.ts";
import { createApiClient, TRPCProvider } from "../lib/trpc.ts";

export function AppProvider({ children }: { children: ReactNode }) {
  // State, not module scope, so each mounted app (and each test) gets a fresh cache.
  const [queryClient] = useState(createQueryClient);
  const [apiClient] = useState(createApiClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={apiClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
