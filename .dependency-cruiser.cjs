// The import rules of docs/ARCHITECTURE.md, checked by `npm run check` (npm run lint:imports).
// dependency-cruiser parses with swc because TypeScript 7 has no compiler API (ADR 010).

const { layers } = require("./apps/server/src/module-layers.json");

const MODULES = "^apps/server/src/modules/";
/** Test code may reach anywhere: a test of one module starts the whole app. */
const TEST_FILE = "\\.(test|test-support|cases)\\.ts$";
const modulesPattern = (names) => `${MODULES}(${names.join("|")})/`;

/** One rule per layer below the top: its modules never import a module of a layer above (ADR 029). */
const layerRules = layers.slice(1).map((layer, index) => ({
  name: `${layer.name}-imports-nothing-above`,
  comment:
    `A module of layer '${layer.name}' imports its own layer or below, never one above ` +
    "(apps/server/src/module-layers.json); ask upwards through a hook (platform/hooks.ts).",
  severity: "error",
  from: { path: modulesPattern(layer.modules), pathNot: TEST_FILE },
  to: { path: modulesPattern(layers.slice(0, index + 1).flatMap((above) => above.modules)) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "routes-use-services",
      comment: "A route validates and guards, then calls a service: it never imports Kysely or a repo.",
      severity: "error",
      from: { path: "\\.routes\\.ts$" },
      to: { path: ["(^|/)node_modules/kysely/", "\\.repo\\.ts$"] },
    },
    {
      name: "repos-know-no-http",
      comment: "A repo runs queries only: it never imports Fastify, a route or a service.",
      severity: "error",
      from: { path: "\\.repo\\.ts$" },
      to: { path: ["(^|/)node_modules/(fastify|@fastify/)", "\\.routes\\.ts$", "\\.service\\.ts$"] },
    },
    {
      name: "contract-runs-anywhere",
      comment:
        "packages/contract runs in the browser, the server and the simulator: it imports zod and " +
        "itself only (its tests also vitest and fast-check) — no node: module, Fastify, React or app code.",
      severity: "error",
      from: { path: "^packages/contract/" },
      to: { pathNot: ["^packages/contract/", "(^|/)node_modules/(zod|vitest|@vitest/|fast-check)"] },
    },
    {
      name: "web-is-not-server",
      comment: "The web speaks to the server over HTTP and shares only packages/contract.",
      severity: "error",
      from: { path: "^apps/web/" },
      to: { path: ["^apps/(server|simulator)/", "^bench/", "^e2e/"] },
    },
    {
      name: "platform-below-modules",
      comment:
        "platform/ is what features stand on; it never reaches up into modules/. Its test files may: " +
        "a test of the bus or the gateway starts whole server nodes (first start, sessions, ingest).",
      severity: "error",
      from: { path: "^apps/server/src/platform/", pathNot: "\\.test(-support)?\\.ts$" },
      to: { path: "^apps/server/src/modules/" },
    },
    ...layerRules,
    {
      name: "modules-below-root",
      comment: "app.ts, main.ts and the root's wiring compose the modules; no module imports them.",
      severity: "error",
      from: { path: MODULES, pathNot: TEST_FILE },
      to: { path: "^apps/server/src/[^/]+\\.ts$" },
    },
    {
      name: "no-circular",
      comment:
        "No server file reaches itself again through imports that run (a type-only import is erased). " +
        "Cycles between module folders, type imports included, are the architecture test's.",
      severity: "error",
      from: { path: "^apps/server/src/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "contract-no-circular",
      comment:
        "The shared contract is a tree of small files: none reaches itself again, type imports included " +
        "(a leaf such as password-limits.ts holds what two files both read).",
      severity: "error",
      from: { path: "^packages/contract/src/" },
      to: { circular: true },
    },
    {
      name: "imports-resolve",
      comment: "An import the cruiser cannot resolve is one it cannot check, so it fails the check.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    parser: "swc",
    // Type-only imports count: a route that names Kysely's types already knows the database.
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    // swc runs without its TSX mode here, so .tsx files (web components) are left to Biome (ADR 010).
    exclude: { path: ["^apps/[^/]+/(dist|data)/", "^e2e/(test-results|screenshots)/", "\\.tsx$"] },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
