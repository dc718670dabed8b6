import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

interface Graph {
  getModuleInfo(id: string): { importers: readonly string[] } | null;
}

/**
 * Whether a module is imported statically, directly or through other modules, by a module whose
 * id ends with `root`. Memoised per root for one build.
 */
function importedFrom(root: string) {
  const known = new Map<string, boolean>();
  const visit = (id: string, graph: Graph): boolean => {
    const cached = known.get(id);
    if (cached !== undefined) return cached;
    known.set(id, false); // a cycle does not count
    const found =
      id.endsWith(root) ||
      (graph.getModuleInfo(id)?.importers ?? []).some((importer) => visit(importer, graph));
    known.set(id, found);
    return found;
  };
  return visit;
}
const underEntry = importedFrom("/src/main.tsx");
const underConsole = importedFrom("/src/app/ConsoleShell.tsx");

// The dev server forwards the API and the realtime socket to the Cellfleet server (spec section 7).
const apiTarget = process.env.CELLFLEET_API_URL ?? "http://localhost:3000";

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
    // bench/bundle.ts reads which chunks each route loads from the manifest (issue 11 budgets).
    manifest: true,
    emptyOutDir: true,
    // MapLibre is one module of about 1 MB that no page but /map loads (ADR 045); the route budgets
    // of bench/bundle.ts, not this warning, hold the start's weight.
    chunkSizeWarningLimit: 1100,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            // The signed-in console's frame (MUI, emotion, TanStack Query, the MUI shell): what every
            // signed-in page needs and the signed-out start does not (ADR 018, round 4). One chunk, as
            // when it was part of the entry: split into the pieces each page shares, it weighed more.
            {
              name: (id, graph) => (!underEntry(id, graph) && underConsole(id, graph) ? "console" : null),
              // Its dependencies that the start already has stay in the start-up chunks.
              includeDependenciesRecursively: false,
            },
            { name: "react", test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            // Only the device page's charts use uPlot: a chunk of its own, fetched with them, never at /login.
            { name: "uplot", test: /node_modules[\\/]uplot[\\/]/ },
            // Only /map uses MapLibre (about 1 MB minified, 280 kB gzipped): its own chunk, fetched there alone.
            { name: "maplibre", test: /node_modules[\\/]maplibre-gl[\\/]/ },
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
