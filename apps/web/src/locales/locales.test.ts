import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ALL_ROLES, MENU_PATHS, ROUTES, roleLabelKey } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import en from "./en.json";
import ru from "./ru.json";

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [inner, text] of flatten(value, path)) out.set(inner, text);
  }
  return out;
}

const ruKeys = flatten(ru as Tree);
const enKeys = flatten(en as Tree);
// A plain string: the test environment replaces the global URL with a browser one.
const srcDir = join(dirname(fileURLToPath(import.meta.url)), "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("locale files", () => {
  it("have exactly the same keys in Russian and English", () => {
    expect([...ruKeys.keys()].sort()).toEqual([...enKeys.keys()].sort());
  });

  it("have no empty texts", () => {
    for (const [key, text] of [...ruKeys, ...enKeys]) expect(text.trim(), key).not.toBe("");
  });

  it("hold real Russian in ru.json", () => {
    const cyrillic = [...ruKeys.values()].filter((text) => /[А-Яа-яЁё]/.test(text));
    expect(cyrillic.length).toBeGreaterThan(ruKeys.size * 0.9);
  });

  it('have every key used literally as t("…") in the source', () => {
    const used = new Set<string>();
    for (const file of sourceFiles(srcDir)) {
      for (const match of readFileSync(file, "utf8").matchAll(/\bt\(\s*["']([^"'`]+)["']/g))
        used.add(match[1]);
    }
    expect(used.size).toBeGreaterThan(20);
    for (const key of used) {
      expect(ruKeys.has(key), `ru.json lacks ${key}`).toBe(true);
      expect(enKeys.has(key), `en.json lacks ${key}`).toBe(true);
    }
  });

  it("title every route of the contract, every menu entry and every role", () => {
    const keys = [
      ...ROUTES.map((route) => `routes.${route.name}`),
      ...Object.keys(MENU_PATHS).map((item) => `menu.${item}`),
      ...[0, ...ALL_ROLES].map((role) => `roles.${roleLabelKey(role)}`),
    ];
    for (const key of keys) {
      expect(ruKeys.has(key), key).toBe(true);
      expect(enKeys.has(key), key).toBe(true);
    }
  });
});
