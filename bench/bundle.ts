// Bundle budget (issue 11): the gzipped JavaScript each route loads before its page can render, read
// from the web build's manifest — the entry and everything it imports statically, plus the route's
// page chunk and what that imports statically, plus the chunks every start fetches before or right
// after the first render (START_UP: the language's start texts; for a signed-in user the console's MUI
// shell with its texts, the session schema, the socket client, the news bell and the unread-events
// badge, and the text parts the page is fetched with). Chunks a page fetches later (the
// device page's charts, a dialog opened by a click) are not counted. `npm run bench:bundle -w bench` builds and prints; bundle.test.ts fails over budget.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { TEXTS_OF, type TextPart, type TextsOf } from "../apps/web/src/app/textParts";

const here = path.dirname(fileURLToPath(import.meta.url));
export const WEB_DIR = path.join(here, "..", "apps", "web");
const DIST = path.join(WEB_DIR, "dist");

/**
 * Chunks fetched on every start although no static import names them (ADR 018). The texts are
 * Russian's: the default language, and the heavier of the two. A name without `src/` is a shared
 * chunk's name (the build's `_realtime-….js`, `_console-….js`: the signed-in MUI frame, vite.config.ts).
 */
const SIGNED_OUT_START = ["src/locales/start/ru.json"];

/** The Russian text chunks a piece of the app is fetched with (apps/web/src/app/textParts.ts). */
function textsOf(piece: TextsOf): string[] {
  const file = (part: TextPart) =>
    part === "start" || part === "shell"
      ? `src/locales/${part}/ru.json`
      : `src/locales/console/${part}/ru.json`;
  return TEXTS_OF[piece].map(file);
}

const SIGNED_IN_START = [
  ...SIGNED_OUT_START,
  "console",
  ...textsOf("consoleShell"),
  "realtime",
  "src/features/notifications/components/NewsBell.tsx",
  "src/features/events/UnreadEventsWatch.tsx",
];

/**
 * Page modules whose routes are weighed, in gzipped kB (1 kB = 1000 bytes). `targetKb` is issue 11's
 * budget; `ceilingKb` is what the test enforces today: the weight reached (ADR 018) rounded up, so
 * growth fails the test while the gap to the target stays visible (bench/README.md).
 */
export const BUDGETS = [
  {
    route: "/login",
    page: "src/features/auth/LoginPage.tsx",
    startUp: SIGNED_OUT_START,
    targetKb: 150,
    ceilingKb: 134,
  },
  {
    route: "/dashboard",
    page: "src/features/devices/DashboardPage.tsx",
    startUp: [...SIGNED_IN_START, ...textsOf("dashboard")],
    targetKb: 300,
    ceilingKb: 299,
  },
  {
    route: "/device/{id}",
    page: "src/features/devices/DevicePage.tsx",
    startUp: [...SIGNED_IN_START, ...textsOf("device")],
    targetKb: null,
    ceilingKb: 342,
  },
] as const;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export function buildWeb(): void {
  // Vitest sets NODE_ENV=test, which would build React's development code: the weight is production's.
  const env = { ...process.env, NODE_ENV: "production" };
  execFileSync("npx", ["vite", "build", "--logLevel", "error"], { cwd: WEB_DIR, stdio: "inherit", env });
}

function readManifest(): Manifest {
  return JSON.parse(readFileSync(path.join(DIST, ".vite", "manifest.json"), "utf8")) as Manifest;
}

/** The files a chunk pulls in through static imports, itself included. */
function staticClosure(manifest: Manifest, key: string, into: Set<string>): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`not in the build manifest: ${key}`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

/** A manifest key: a source path as is, or the key of the shared chunk with that name. */
function manifestKey(manifest: Manifest, name: string): string {
  if (name.startsWith("src/")) return name;
  const key = Object.keys(manifest).find((candidate) =>
    new RegExp(`^_${name}-[\\w-]+\\.js$`).test(candidate),
  );
  if (!key) throw new Error(`no shared chunk named ${name} in the build manifest`);
  return key;
}

const gzipBytes = (file: string) => gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length;

export interface RouteWeight {
  route: string;
  files: number;
  gzipKb: number;
  targetKb: number | null;
  ceilingKb: number;
  /** Whether any of its chunks holds zod (ADR 026: the signed-in start goes without it). */
  hasZod: boolean;
}

/** The gzipped JS of each budgeted route in the current build (apps/web/dist). */
export function measureRoutes(): RouteWeight[] {
  const manifest = readManifest();
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error("the build manifest has no entry");
  return BUDGETS.map(({ route, page, startUp, targetKb, ceilingKb }) => {
    const files = staticClosure(manifest, page, staticClosure(manifest, entryKey, new Set()));
    for (const name of startUp) staticClosure(manifest, manifestKey(manifest, name), files);
    const scripts = [...files].filter((file) => file.endsWith(".js"));
    const bytes = scripts.reduce((sum, file) => sum + gzipBytes(file), 0);
    // zod names its base class so in the built code, whatever the minifier does to the rest.
    const hasZod = scripts.some((file) => readFileSync(path.join(DIST, file), "utf8").includes("$ZodType"));
    return { route, files: files.size, gzipKb: Math.round(bytes / 100) / 10, targetKb, ceilingKb, hasZod };
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.env.BENCH_BUILD !== "0") buildWeb();
  console.log(
    "| route | chunks | gzipped JS | ceiling (test) | target (issue 11) | zod |\n| --- | --: | --: | --: | --: | --- |",
  );
  for (const row of measureRoutes()) {
    const target = row.targetKb === null ? "–" : `${row.targetKb} kB`;
    const zod = row.hasZod ? "yes" : "no";
    console.log(
      `| ${row.route} | ${row.files} | ${row.gzipKb} kB | ${row.ceilingKb} kB | ${target} | ${zod} |`,
    );
  }
}
