// Bundle budget (issue 11): the gzipped JavaScript each route loads, read from the web build's
// manifest (.vite/manifest.json) by walking what the route loads: the entry and its static imports,
// then every dynamic import of the chunks reached, as the browser takes them while the route comes up:
// the route's own page (none of the route table's other pages), the text parts the app's own table
// names for what is loaded (textParts.ts; Russian, the default and the heavier language), the
// signed-in frame on a signed-in route, and everything else those chunks import lazily (the device
// page's charts, the news bell, the socket client …) except the few pieces a person opens with an
// action (ON_ACTION: a dialog, the terminal, a sign-in's second step). A new lazy chunk is therefore
// counted unless it is named there, with its reason. `npm run bench:bundle -w bench` builds and
// prints; bundle.test.ts fails over budget.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { TEXTS_OF, type TextPart, type TextsOf } from "../apps/web/src/app/textParts";

const here = path.dirname(fileURLToPath(import.meta.url));
export const WEB_DIR = path.join(here, "..", "apps", "web");
const DIST = path.join(WEB_DIR, "dist");
const LANGUAGE = "ru";

/**
 * Lazy imports a route does not take while it comes up, only when a person acts (source paths as
 * the manifest keys them, each with why). The walk fails on a name the build no longer has, so the
 * list cannot outlive what it excuses.
 */
export const ON_ACTION: Readonly<Record<string, string>> = {
  "src/features/auth/ResetPasswordDialog.tsx": "the login page's 'Forgot password?' link",
  "src/features/auth/ResetPasswordForm.tsx": "the e-mailed reset link (/login?reset=…)",
  "src/features/auth/SecondFactorStep.tsx": "a sign-in whose account asks for a second factor",
  "src/features/tunnels/TerminalDialog.tsx": "the Remote access card's Terminal button",
  "src/features/tunnels/ReplayDialog.tsx": "an ended session's Replay button on the Remote access card",
};

/**
 * The signed-in frame's chunk (vite.config.ts's `console` group: ConsoleShell with MUI, emotion,
 * TanStack Query), fetched once there is a session. A signed-out page fetches it only for an MUI
 * part a person opens (MuiScope: the reset dialog and form), so a signed-out route does not take it.
 */
function consoleKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((candidate) => /^_console-[\w-]+\.js$/.test(candidate));
  if (!key) throw new Error("no shared chunk named console in the build manifest");
  return key;
}

/**
 * Routes weighed, by their page's name in routePages.tsx, in gzipped kB (1 kB = 1000 bytes).
 * `targetKb` is issue 11's budget; `ceilingKb` is what the test enforces today: the weight reached
 * (ADR 018) rounded up, so growth fails the test while the gap to the target stays visible
 * (bench/README.md).
 */
export const BUDGETS = [
  { route: "/login", page: "login", isSignedIn: false, targetKb: 150, ceilingKb: 135 },
  { route: "/dashboard", page: "dashboard", isSignedIn: true, targetKb: 300, ceilingKb: 300 },
  // /device grew 0.7 kB with the web interface (its button and session kinds, issue 29); no target.
  { route: "/device/{id}", page: "device", isSignedIn: true, targetKb: null, ceilingKb: 373 },
] as const satisfies readonly {
  route: string;
  page: TextsOf;
  isSignedIn: boolean;
  targetKb: number | null;
  ceilingKb: number;
}[];

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export function buildWeb(): void {
  // Vitest sets NODE_ENV=test, which would build React's development code: the weight is production's.
  const env = { ...process.env, NODE_ENV: "production" };
  execFileSync("npx", ["vite", "build", "--logLevel", "error"], { cwd: WEB_DIR, stdio: "inherit", env });
}

/** The current build's manifest (apps/web/dist/.vite/manifest.json). */
export function readManifest(): Manifest {
  return JSON.parse(readFileSync(path.join(DIST, ".vite", "manifest.json"), "utf8")) as Manifest;
}

/** The manifest key of a source module (`src/…`, with whichever extension the build saw). */
function sourceKey(manifest: Manifest, source: string): string {
  const key = [source, `${source}.tsx`, `${source}.ts`].find((candidate) => manifest[candidate]);
  if (!key) throw new Error(`not in the build manifest: ${source}`);
  return key;
}

/** The route table's pages (routePages.tsx's `features`: name → lazy import), as manifest keys. */
function routePages(manifest: Manifest): Map<string, string> {
  const text = readFileSync(path.join(WEB_DIR, "src", "app", "routePages.tsx"), "utf8");
  const pages = new Map<string, string>();
  for (const [, name, specifier] of text.matchAll(/^\s+(\w+): \(\) => import\("([^"]+)"\)/gm)) {
    if (name && specifier) pages.set(name, sourceKey(manifest, path.posix.join("src/app", specifier)));
  }
  if (pages.size === 0) throw new Error("no pages found in routePages.tsx");
  return pages;
}

/** The text chunk of one part in the weighed language (i18n.ts). */
function textKey(manifest: Manifest, part: TextPart): string {
  const file =
    part === "start" || part === "shell"
      ? `src/locales/${part}/${LANGUAGE}.json`
      : `src/locales/console/${part}/${LANGUAGE}.json`;
  return sourceKey(manifest, file);
}

/**
 * The manifest keys of every chunk a route loads while it comes up: static imports always, dynamic
 * ones unless they are another page, texts nobody loaded asks for, the signed-in frame on a
 * signed-out route, or ON_ACTION. Manifest keys are source paths, or `_name-hash.js` for a shared chunk.
 */
export function routeChunks(manifest: Manifest, budget: (typeof BUDGETS)[number]): Set<string> {
  const pages = routePages(manifest);
  const page = pages.get(budget.page);
  if (!page) throw new Error(`no page named ${budget.page} in routePages.tsx`);
  for (const source of Object.keys(ON_ACTION)) sourceKey(manifest, source);
  const pieces: TextsOf[] = [budget.page, ...(budget.isSignedIn ? (["consoleShell"] as const) : [])];
  const parts = new Set<TextPart>(["start", ...pieces.flatMap((piece) => TEXTS_OF[piece])]);
  const texts = new Set([...parts].map((part) => textKey(manifest, part)));
  const otherPages = new Set([...pages.values()].filter((key) => key !== page));
  const frame = consoleKey(manifest);
  const isTaken = (key: string) =>
    !otherPages.has(key) &&
    !(key in ON_ACTION) &&
    (!key.startsWith("src/locales/") || texts.has(key)) &&
    (key !== frame || budget.isSignedIn);
  const reached = new Set<string>();
  const visit = (key: string) => {
    if (reached.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`not in the build manifest: ${key}`);
    reached.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
    for (const loaded of chunk.dynamicImports ?? []) if (isTaken(loaded)) visit(loaded);
  };
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error("the build manifest has no entry");
  visit(entry);
  // Taken by the router whatever imports them: the page, its texts and (signed in) the frame.
  for (const key of [page, ...texts, ...(budget.isSignedIn ? [frame] : [])]) visit(key);
  return reached;
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
  return BUDGETS.map((budget) => {
    const files = new Set([...routeChunks(manifest, budget)].map((key) => manifest[key]?.file ?? key));
    const scripts = [...files].filter((file) => file.endsWith(".js"));
    const bytes = scripts.reduce((sum, file) => sum + gzipBytes(file), 0);
    // zod names its base class so in the built code, whatever the minifier does to the rest.
    const hasZod = scripts.some((file) => readFileSync(path.join(DIST, file), "utf8").includes("$ZodType"));
    const { route, targetKb, ceilingKb } = budget;
    return {
      route,
      files: scripts.length,
      gzipKb: Math.round(bytes / 100) / 10,
      targetKb,
      ceilingKb,
      hasZod,
    };
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
