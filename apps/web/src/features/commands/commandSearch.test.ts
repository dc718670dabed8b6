import type { Command } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { i18n } from "../../app/i18n";
import { matchesCommandSearch, targetsLabel } from "./commandSearch";

const targets = (patch: Partial<Command["targets"]>): Command["targets"] => ({
  devices: [],
  tags: [],
  all: false,
  ...patch,
});

describe("the actions list's targets and search (issue 27)", () => {
  it("names all routers, the tags, or how many routers, with plurals in both languages", () => {
    const t = i18n.getFixedT("en");
    expect(targetsLabel(t, targets({ all: true }))).toBe("All routers");
    expect(targetsLabel(t, targets({ tags: ["north", "atm"] }))).toBe("Tags: north, atm");
    expect(targetsLabel(t, targets({ devices: ["a"] }))).toBe("1 router");
    expect(targetsLabel(t, targets({ devices: ["a", "b", "c"] }))).toBe("3 routers");
    const ru = i18n.getFixedT("ru");
    expect(targetsLabel(ru, targets({ devices: ["a"] }))).toBe("1 маршрутизатор");
    expect(targetsLabel(ru, targets({ devices: ["a", "b"] }))).toBe("2 маршрутизатора");
    expect(targetsLabel(ru, targets({ devices: Array(5).fill("x") }))).toBe("5 маршрутизаторов");
    expect(targetsLabel(ru, targets({ devices: Array(21).fill("x") }))).toBe("21 маршрутизатор");
  });

  it("finds a command by every word of the search in any of its shown texts, in any case", () => {
    const shown = ["Reboot", "Partly completed: 9 of 10", "Tags: north", "Anna Admin", "—"];
    expect(matchesCommandSearch(shown, "")).toBe(true);
    expect(matchesCommandSearch(shown, "  reboot  ")).toBe(true);
    expect(matchesCommandSearch(shown, "NORTH anna")).toBe(true);
    expect(matchesCommandSearch(shown, "north shell")).toBe(false);
  });
});
