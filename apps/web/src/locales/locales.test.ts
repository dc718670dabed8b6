import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ALL_ROLES, MENU_PATHS, ROUTES, roleLabelKey } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import enConsole from "./console/en.json";
import ruConsole from "./console/ru.json";
import enStart from "./start/en.json";
import ruStart from "./start/ru.json";

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

// Each language's texts are two files (ADR 018): what the shell and the signed-out pages say, and
// the rest. No top-level group is in both.
const ruKeys = flatten({ ...(ruStart as Tree), ...(ruConsole as Tree) });
const enKeys = flatten({ ...(enStart as Tree), ...(enConsole as Tree) });
const startKeys = flatten(ruStart as Tree);
// A plain string: the test environment replaces the global URL with a browser one.
const srcDir = join(dirname(fileURLToPath(import.meta.url)), "..");

function literalKeys(files: string[]): Set<string> {
  const used = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(file, "utf8").matchAll(/\bt\(\s*["'`]([^"'`$]+)["'`]/g))
      used.add(match[1]);
  }
  return used;
}

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

  it("split into start and console texts by top-level group, alike in both languages", () => {
    expect(Object.keys(ruStart).sort()).toEqual(Object.keys(enStart).sort());
    expect(Object.keys(ruConsole).sort()).toEqual(Object.keys(enConsole).sort());
    for (const group of Object.keys(ruStart)) expect(Object.keys(ruConsole), group).not.toContain(group);
  });

  it("hold in the start texts every key the shell and the signed-out pages use", () => {
    // What renders before any console page is fetched: the shell (app/, the events badge around it),
    // the coming-soon page and the pages routePages.tsx marks "start" (login, demo, logout).
    const files = [
      ...sourceFiles(join(srcDir, "app")),
      join(srcDir, "components", "ComingSoonPage.tsx"),
      join(srcDir, "features", "events", "ShellWithBadges.tsx"),
      ...["LoginPage.tsx", "DemoPage.tsx", "LogoutPage.tsx"].map((name) =>
        join(srcDir, "features", "auth", name),
      ),
    ];
    const used = literalKeys(files);
    expect(used.size).toBeGreaterThan(20);
    for (const key of used) expect(startKeys.has(key), `start texts lack ${key}`).toBe(true);
  });

  it("hold real Russian in the Russian texts", () => {
    const cyrillic = [...ruKeys.values()].filter((text) => /[А-Яа-яЁё]/.test(text));
    expect(cyrillic.length).toBeGreaterThan(ruKeys.size * 0.9);
  });

  it('have every key used literally as t("…") in the source', () => {
    const used = literalKeys(sourceFiles(srcDir));
    expect(used.size).toBeGreaterThan(20);
    for (const key of used) {
      expect(ruKeys.has(key), `Russian texts lack ${key}`).toBe(true);
      expect(enKeys.has(key), `English texts lack ${key}`).toBe(true);
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
