import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

// Reading the web's imports from its source text, for the tests that hold pieces and features to
// their rules (dependency-cruiser leaves .tsx files out, ADR 010).

/** A relative import resolved to a source file (.ts, .tsx, index), or null for anything else. */
export function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(from), spec);
  const found = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")].find(
    (path) => /\.tsx?$/.test(path) && existsSync(path),
  );
  return found ?? null;
}

const ANY_IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Every source file a file imports by a relative path: statically, type-only or lazily. */
export function allImportsOf(file: string): string[] {
  const specs = [...readFileSync(file, "utf8").matchAll(ANY_IMPORT)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? "",
  );
  return specs.map((spec) => resolveImport(file, spec)).filter((path): path is string => path !== null);
}
