import { describe, expect, it } from "vitest";
import { firmwareVersionFromFilename, SaveSoftwareRuleSchema, softwareRuleMatches } from "./firmware";

describe("software rules", () => {
  const rule = {
    name: "RUT9 stable",
    url: "https://fw.example/RUT9_R_00.07.08.bin",
    series: "RUT9",
    models: ["RUT955"],
  };
  const shown = { status: "Ready", syncTime: "25.11.2026, 02:51" };

  it("a search matches name, url, series, sync time, status text and models, case apart", () => {
    for (const needle of ["stable", "fw.example", "rut9", "02:51", "ready", "rut955", ""])
      expect(softwareRuleMatches(rule, needle, shown), needle).toBe(true);
    expect(softwareRuleMatches(rule, "RUTX", shown)).toBe(false);
    expect(softwareRuleMatches({ ...rule, series: null }, "n/a", shown)).toBe(true);
  });

  it("takes http(s) URLs only, at least one model, each once", () => {
    const ok = SaveSoftwareRuleSchema.parse({ name: " a ", url: "http://h/x.bin", models: ["A", "A", "B"] });
    expect(ok).toEqual({ name: "a", url: "http://h/x.bin", models: ["A", "B"] });
    for (const url of ["ftp://h/x.bin", "file:///etc/passwd", "x.bin", ""])
      expect(SaveSoftwareRuleSchema.safeParse({ name: "a", url, models: ["A"] }).success, url).toBe(false);
    expect(SaveSoftwareRuleSchema.safeParse({ name: "a", url: "http://h/x", models: [] }).success).toBe(
      false,
    );
  });

  it("the version a file carries is its name without the extension", () => {
    expect(firmwareVersionFromFilename("RUT9_R_00.07.08.2.bin")).toBe("RUT9_R_00.07.08.2");
    expect(firmwareVersionFromFilename("routeros-7.16.2.npk")).toBe("routeros-7.16.2");
    expect(firmwareVersionFromFilename("RUTX_R_00.07.08.2")).toBe("RUTX_R_00.07.08.2");
  });
});
