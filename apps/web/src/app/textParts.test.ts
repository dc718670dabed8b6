import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { allTexts, partOfGroup, readParts, sourceFiles, srcDir } from "../locales/localeFiles.test-support";
import { resolveImport } from "../test/imports.test-support";
import { TEXT_PART_NAMES, TEXTS_OF, type TextPart, type TextsOf } from "./textParts";

// Each lazily fetched piece (a page, the signed-in shell, the login page's reset forms) is fetched
// together with the text parts textParts.ts names for it; the start texts come first. These tests
// walk each piece's imports and fail when it uses a key of a part it does not name, which would show
// the raw key on screen.

const keys = [...allTexts("ru").keys()];
const keySet = new Set(keys);
const groups = partOfGroup();
const files = sourceFiles(srcDir);
const read = (file: string) => readFileSync(file, "utf8");
const show = (file: string) => relative(srcDir, file);

// `import type` and `export type` bring no code, so no texts.
const STATIC_IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?!type\s)[^;]*?\sfrom\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(file: string): { statics: string[]; dynamics: string[] } {
  const source = read(file);
  const resolveAll = (specs: string[]) =>
    specs.map((spec) => resolveImport(file, spec)).filter((path): path is string => path !== null);
  return {
    statics: resolveAll([...source.matchAll(STATIC_IMPORT)].map((match) => match[1] ?? match[2] ?? "")),
    dynamics: resolveAll([...source.matchAll(DYNAMIC_IMPORT)].map((match) => match[1] ?? "")),
  };
}

/**
 * Where each piece of the table is loaded: routePages.tsx's `name: () => import(…)` entries and
 * `withTexts("name", () => import(…))` anywhere. Each pair: the file it is in, the piece, its module.
 */
const LOADER = /withTexts\(\s*"(\w+)",\s*\(\)\s*=>\s*import\(\s*"([^"]+)"\s*\)/g;
const PAGE_LOADER = /\n\s*(\w+):\s*\(\)\s*=>\s*import\(\s*"([^"]+)"\s*\)/g;
const loaders = files.flatMap((file) =>
  [...read(file).matchAll(file.endsWith("routePages.tsx") ? PAGE_LOADER : LOADER)].map((match) => ({
    file,
    piece: match[1] ?? "",
    module: resolveImport(file, match[2] ?? ""),
  })),
);
const moduleOf = new Map(loaders.map((loader) => [loader.piece, loader.module]));
const pieceModules = new Set(loaders.map((loader) => loader.module));

/**
 * The source files a piece runs: its module and what it imports, statically or dynamically, except
 * another piece's module (fetched with its own texts).
 */
function closure(start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const { statics, dynamics } = importsOf(file);
    for (const next of statics) visit(next);
    for (const next of dynamics) if (!pieceModules.has(next)) visit(next);
  };
  visit(start);
  return seen;
}

/**
 * The keys a file names: any string literal that is a key, and the literal head of a template that
 * starts a key (t(`fleet.status.${status}`) names fleet.status.). Other dotted strings (permission
 * names such as "settings.view") are not keys and do not count.
 */
const LITERAL = /["'`]([A-Za-z]\w*\.[\w.]*)(\$\{|["'`])/g;
function keysNamedIn(file: string): string[] {
  return [...read(file).matchAll(LITERAL)].flatMap(([, text = "", end]) => {
    const isKey = end === "${" ? keys.some((key) => key.startsWith(text)) : keySet.has(text);
    return isKey ? [text] : [];
  });
}

/** Keys used in a piece's files whose part is neither the start texts nor one of `parts`. */
function keysOutside(start: string, parts: readonly TextPart[]): string[] {
  const allowed = new Set<TextPart>(["start", ...parts]);
  const missing: string[] = [];
  for (const file of closure(start)) {
    for (const key of keysNamedIn(file)) {
      const part = groups.get(key.split(".")[0] ?? "");
      if (!part || !allowed.has(part)) missing.push(`${key} (part ${part}) in ${show(file)}`);
    }
  }
  return [...new Set(missing)];
}

const pieces = Object.keys(TEXTS_OF) as TextsOf[];

describe("text parts", () => {
  it("are the parts on disk", () => {
    expect([...readParts("ru").keys()].sort()).toEqual([...TEXT_PART_NAMES].sort());
  });

  it("are named for every piece the app loads, and only for those", () => {
    expect([...moduleOf.keys()].sort()).toEqual([...pieces].sort());
    for (const loader of loaders)
      expect(loader.module, `${loader.piece} in ${show(loader.file)}`).not.toBe(null);
    // bench/bundle.ts weighs these two pages with the parts named here.
    expect(moduleOf.get("dashboard")).toBe(join(srcDir, "features", "devices", "DashboardPage.tsx"));
    expect(moduleOf.get("device")).toBe(join(srcDir, "features", "devices", "DevicePage.tsx"));
  });

  it("are fetched with every dynamic import of a piece", () => {
    // A piece imported without its loader would come without its texts.
    for (const file of files) {
      const withLoader = loaders.filter((loader) => loader.file === file).map((loader) => loader.module);
      const imported = importsOf(file).dynamics.filter((module) => pieceModules.has(module));
      expect(imported.sort(), show(file)).toEqual(withLoader.sort());
    }
  });

  it("hold in the start texts every key the start renders", () => {
    // main.tsx and everything it reaches before a piece is fetched: the signed-out shell and the router.
    const used = [...closure(join(srcDir, "main.tsx"))].flatMap(keysNamedIn);
    expect(used.length).toBeGreaterThan(10);
    expect(keysOutside(join(srcDir, "main.tsx"), [])).toEqual([]);
  });

  it.each(pieces)("hold what %s uses in the parts it names", (piece) => {
    const module = moduleOf.get(piece);
    if (!module) throw new Error(`no loader for ${piece}`);
    expect(keysOutside(module, TEXTS_OF[piece])).toEqual([]);
  });

  it("catch a page that names too few parts", () => {
    const dashboard = moduleOf.get("dashboard") ?? "";
    const fewer = TEXTS_OF.dashboard.filter((part) => part !== "insight");
    expect(keysOutside(dashboard, fewer).some((line) => line.startsWith("insight."))).toBe(true);
    // The shell's news bell speaks the shell part, which the dashboard does not name.
    expect(keysOutside(moduleOf.get("consoleShell") ?? "", [])).toContain(
      "news.title (part shell) in features/notifications/components/NewsBell.tsx",
    );
  });
});
