import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The dev server forwards the API and the realtime socket to the Cellfleet server (spec section 7).
const apiTarget = process.env.CELLFLEET_API_URL ?? "http://localhost:3000";

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
    // bench/bundle.ts reads which chunks each route loads from the manifest (issue 11 budgets).
    manifest: true,
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            // Only the device page's charts use uPlot: a chunk of its own, fetched with them, never at /login.
            { name: "uplot", test: /node_modules[\\/]uplot[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
  preview: {
    proxy: {
      "/api": { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
});
