import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// In development the API runs separately on :3000; in production the server serves dist/ itself,
// so the browser always talks to its own origin and the session cookie stays first-party.
const apiTarget = "http://localhost:3000";

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
  },
  server: {
    proxy: {
      "/trpc": apiTarget,
      "/api": apiTarget,
      "/healthz": apiTarget,
      "/readyz": apiTarget,
    },
  },
});
