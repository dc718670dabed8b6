import { PERMISSION_ACTIONS } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { allTexts } from "../../../locales/localeFiles.test-support";

describe("the token screen's words for actions", () => {
  it.each(["en", "ru"] as const)("has a word in %s for every action of the permission table", (locale) => {
    const texts = allTexts(locale);
    const missing = PERMISSION_ACTIONS.filter((action) => !texts.get(`apiTokens.action.${action}`));
    expect(missing).toEqual([]);
  });
});
