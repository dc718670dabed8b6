import { AUDIT_KINDS, type WebAction } from "@cellfleet/contract";
import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { allTexts } from "../../../locales/localeFiles.test-support";
import { entryText, kindText } from "./entryText";

// Issue 27 item 14: every kind of audit entry has its words in both languages, and an entry reads
// as what was done to which object, not as the API's method and section.

const texts = { ru: allTexts("ru"), en: allTexts("en") };

function resources(locale: "ru" | "en") {
  const tree: Record<string, unknown> = {};
  for (const [key, text] of texts[locale]) {
    const path = key.split(".");
    let node = tree;
    for (const part of path.slice(0, -1)) {
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    }
    node[path.at(-1) as string] = text;
  }
  return { translation: tree };
}

const entry = (over: Partial<WebAction>): Pick<WebAction, "action" | "kind" | "object"> => ({
  action: "DELETE_script",
  kind: "script.delete",
  object: { type: "script", id: "0b1c2d3e-aaaa", name: "Uptime", count: null },
  ...over,
});

describe("audit entries in words", () => {
  const t = { ru: i18next.createInstance(), en: i18next.createInstance() };
  beforeAll(async () => {
    for (const locale of ["ru", "en"] as const)
      await t[locale].init({
        lng: locale,
        resources: { [locale]: resources(locale) },
        interpolation: { escapeValue: false },
      });
  });

  it("has a text with its object for every kind, in Russian and English", () => {
    for (const locale of ["ru", "en"] as const) {
      const missing = AUDIT_KINDS.filter((kind) => !texts[locale].has(`accounting.logs.kinds.${kind}`));
      expect(missing, locale).toEqual([]);
    }
  });

  it("says what was done to which object", () => {
    expect(entryText(t.en.t, entry({}))).toBe("Deleted script “Uptime”");
    expect(entryText(t.ru.t, entry({}))).toBe("Удаление скрипта «Uptime»");
    expect(
      entryText(t.en.t, entry({ object: { type: "script", id: "0b1c2d3e-aaaa", name: null, count: null } })),
    ).toBe("Deleted script #0b1c2d3e");
    expect(
      entryText(
        t.en.t,
        entry({ kind: "file.deleteMany", object: { type: "file", id: null, name: null, count: 3 } }),
      ),
    ).toBe("Deleted files: 3 items");
  });

  it("tells approving from declining", () => {
    const approved = entryText(t.en.t, entry({ action: "POST_command", kind: "command.approve" }));
    const declined = entryText(t.en.t, entry({ action: "POST_command", kind: "command.decline" }));
    expect(approved).not.toBe(declined);
    expect(approved).not.toContain("POST_");
  });

  it("shows an entry written before kinds by its method and section, and a kind alone for the filter", () => {
    expect(entryText(t.en.t, entry({ kind: null, object: null, action: "PUT_crontab" }))).toContain(
      "PUT_crontab",
    );
    expect(kindText(t.en.t, "device.createMany")).toBe("Added routers from a list");
    expect(kindText(t.ru.t, "script.delete")).toBe("Удаление скрипта");
  });

  it("names the API token a save was made through (ADR 040), in both languages", () => {
    expect(t.en.t("accounting.logs.viaToken", { name: "sync" })).toBe("via token “sync”");
    expect(t.ru.t("accounting.logs.viaToken", { name: "sync" })).toBe("через токен «sync»");
    expect(kindText(t.en.t, "apiToken.create")).toBe("Made API token");
    expect(kindText(t.ru.t, "apiToken.revokeDomain")).toBe("Отзыв API-токена сотрудника домена");
  });
});
