import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TextPart } from "../app/textParts";

// Reading the locale files and the source as the tests see them: each language's texts are split into
// parts (app/textParts.ts): locales/start/, locales/shell/ and locales/console/<part>/, each file
// holding whole top-level groups.

export type Tree = { [key: string]: string | Tree };

// A plain string: the test environment replaces the global URL with a browser one.
export const localesDir = dirname(fileURLToPath(import.meta.url));
export const srcDir = join(localesDir, "..");

export function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [inner, text] of flatten(value, path)) out.set(inner, text);
  }
  return out;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Tree;

/** Every part of one language's texts as found on disk, by part name. */
export function readParts(locale: "ru" | "en"): Map<string, Tree> {
  const parts = new Map<string, Tree>();
  for (const fixed of ["start", "shell"])
    parts.set(fixed, readJson(join(localesDir, fixed, `${locale}.json`)));
  const consoleDir = join(localesDir, "console");
  for (const part of readdirSync(consoleDir).sort())
    parts.set(part, readJson(join(consoleDir, part, `${locale}.json`)));
  return parts;
}

/** All of a language's texts as one flat key → text map. */
export function allTexts(locale: "ru" | "en"): Map<string, string> {
  const out = new Map<string, string>();
  for (const tree of readParts(locale).values()) for (const [key, text] of flatten(tree)) out.set(key, text);
  return out;
}

/** The part each top-level group of the texts is in. */
export function partOfGroup(): Map<string, TextPart> {
  const out = new Map<string, TextPart>();
  for (const [part, tree] of readParts("ru"))
    for (const group of Object.keys(tree)) out.set(group, part as TextPart);
  return out;
}

/** The app's source files under a directory, tests left out. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test(-support)?\.tsx?$/.test(name) ? [path] : [];
  });
}
