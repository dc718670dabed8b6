import { readFileSync } from "node:fs";
import { ALL_ROLES, MENU_PATHS, ROUTES, roleLabelKey } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { allTexts, readParts, sourceFiles, srcDir } from "./localeFiles.test-support";

// Each language's texts are split into parts (app/textParts.ts, ADR 018); which part a page needs is
// checked in app/textParts.test.ts.
const ruKeys = allTexts("ru");
const enKeys = allTexts("en");

// A counted text is a family of plural keys (`key_one`, `key_other`; Russian also `_few`, `_many`):
// the languages agree on the family, not on its members, and `t("key", { count })` finds it.
const PLURAL = /_(zero|one|two|few|many|other)$/;
const families = (keys: Map<string, string>) =>
  new Set([...keys.keys()].map((key) => key.replace(PLURAL, "")));
const ruFamilies = families(ruKeys);
const enFamilies = families(enKeys);

function literalKeys(files: string[]): Set<string> {
  const used = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(file, "utf8").matchAll(/\bt\(\s*["'`]([^"'`$]+)["'`]/g))
      used.add(match[1]);
  }
  return used;
}

describe("locale files", () => {
  it("have exactly the same keys in Russian and English, counted texts by their plural family", () => {
    expect([...ruFamilies].sort()).toEqual([...enFamilies].sort());
  });

  it("give each counted text every plural form its language has", () => {
    for (const [keys, forms] of [
      [enKeys, ["one", "other"]],
      [ruKeys, ["one", "few", "many", "other"]],
    ] as const) {
      const counted = new Set(
        [...keys.keys()].filter((key) => PLURAL.test(key)).map((key) => key.replace(PLURAL, "")),
      );
      for (const family of counted)
        for (const form of forms) expect(keys.has(`${family}_${form}`), `${family}_${form}`).toBe(true);
    }
  });

  it("have no empty texts", () => {
    for (const [key, text] of [...ruKeys, ...enKeys]) expect(text.trim(), key).not.toBe("");
  });

  it("split into the same parts by top-level group in both languages, no group in two parts", () => {
    const ru = readParts("ru");
    const en = readParts("en");
    expect([...en.keys()]).toEqual([...ru.keys()]);
    const seen = new Set<string>();
    for (const [part, tree] of ru) {
      expect(Object.keys(en.get(part) ?? {}).sort(), part).toEqual(Object.keys(tree).sort());
      for (const group of Object.keys(tree)) {
        expect(seen.has(group), `${group} is in two parts`).toBe(false);
        seen.add(group);
      }
    }
  });

  it("hold no false friends of Russian words in the English texts (issue 27: the software list was 'Actual')", () => {
    const falseFriends = /\b(actual|actually)\b/i;
    expect([...enKeys].filter(([, text]) => falseFriends.test(text)).map(([key]) => key)).toEqual([]);
  });

  it("hold real Russian in the Russian texts", () => {
    const cyrillic = [...ruKeys.values()].filter((text) => /[А-Яа-яЁё]/.test(text));
    expect(cyrillic.length).toBeGreaterThan(ruKeys.size * 0.9);
  });

  it('have every key used literally as t("…") in the source', () => {
    const used = literalKeys(sourceFiles(srcDir));
    expect(used.size).toBeGreaterThan(20);
    for (const key of used) {
      expect(ruFamilies.has(key), `Russian texts lack ${key}`).toBe(true);
      expect(enFamilies.has(key), `English texts lack ${key}`).toBe(true);
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
