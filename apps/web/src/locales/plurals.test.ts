import { describe, expect, it } from "vitest";
import { i18n } from "../app/i18n";

// Counts read as the language writes them (issue 27: "1 routers"): English one/other, Russian
// one/few/many, through i18next's plural keys.

describe("counted texts", () => {
  const en = i18n.getFixedT("en");
  const ru = i18n.getFixedT("ru");

  it("say one router, one entry, one attempt in English", () => {
    expect(en("commands.dryRun.targets", { count: 1 })).toBe("1 router.");
    expect(en("commands.dryRun.targets", { count: 2 })).toBe("2 routers.");
    expect(en("commands.approval.waiting", { count: 1 })).toBe(
      "This command to 1 router waits for your decision.",
    );
    expect(en("accounting.policies.entries", { count: 1 })).toBe("1 entry");
    expect(en("insight.refusal.attempts", { count: 1 })).toBe("(1 attempt)");
    expect(en("files.repeats", { count: 1 })).toBe("Sent again unchanged: once");
    expect(en("news.waiting", { count: 1 })).toBe("1 action waits for you");
    expect(en("news.waiting", { count: 3 })).toBe("3 actions wait for you");
  });

  it("take the Russian forms for 1, 3, 5 and 21", () => {
    expect(ru("commands.approval.waiting", { count: 1 })).toBe(
      "Команда на 1 маршрутизатор ждёт вашего решения.",
    );
    expect(ru("commands.approval.waiting", { count: 3 })).toBe(
      "Команда на 3 маршрутизатора ждёт вашего решения.",
    );
    expect(ru("commands.approval.waiting", { count: 5 })).toBe(
      "Команда на 5 маршрутизаторов ждёт вашего решения.",
    );
    expect(ru("commands.approval.waiting", { count: 21 })).toBe(
      "Команда на 21 маршрутизатор ждёт вашего решения.",
    );
    expect(ru("news.waiting", { count: 2 })).toBe("2 действия ждут вашего решения");
  });
});
