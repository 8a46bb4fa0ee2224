import { QueryClient } from "@tanstack/react-query";
import { getHttpStatus } from "./trpc-error.ts";

const maxRetries = 2;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        // A 4xx answer (signed out, forbidden, not found, invalid input) will not change on retry;
        // only network failures and server errors are worth another attempt.
        retry: (failureCount, error) => {
          const status = getHttpStatus(error);
          if (status !== null && status < 500) return false;
          return failureCount < maxRetries;
        },
      },
      mutations: { retry: false },
    },
  });
}
