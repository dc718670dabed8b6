import { describe, expect, it } from "vitest";
import {
  compareIdentifiers,
  matchesZeroTouch,
  parseZeroTouchUsername,
  ZeroTouchConfigInputSchema,
} from "./zerotouch";

const claims = (model: string, serial: string, imei: string) => ({ model, serial, imei });

describe("zero-touch claims and ranges", () => {
  it("parses the zt1 user name and refuses malformed ones", () => {
    expect(parseZeroTouchUsername("zt1:0123456789ab:RUT955:1500:356938035643809")).toEqual({
      keyId: "0123456789ab",
      model: "RUT955",
      serial: "1500",
      imei: "356938035643809",
    });
    expect(parseZeroTouchUsername("zt1:0123456789ab:RUT955::356938035643809")?.serial).toBe("");
    expect(parseZeroTouchUsername("zt1:0123456789ab:RUT955::")).toBeNull();
    expect(parseZeroTouchUsername("zt1:0123456789AB:RUT955:1:")).toBeNull();
    expect(parseZeroTouchUsername("zt2:0123456789ab:RUT955:1:")).toBeNull();
    expect(parseZeroTouchUsername("zt1:0123456789ab:a:b:c:d")).toBeNull();
  });

  it("takes every printable ASCII character but ':' in a claim, and nothing else (issue 25)", () => {
    const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));
    for (const char of printable) {
      const parsed = parseZeroTouchUsername(`zt1:0123456789ab:a${char}b:1:`);
      if (char === ":") expect(parsed, "':' separates the fields").toBeNull();
      else expect(parsed?.model, JSON.stringify(char)).toBe(`a${char}b`);
    }
    expect(parseZeroTouchUsername("zt1:0123456789ab:LtAP LTE6:HCQ08AXJ1B2:")?.model).toBe("LtAP LTE6");
    for (const char of ["\x00", "\t", "\x1f", "\x7f", "é"])
      expect(parseZeroTouchUsername(`zt1:0123456789ab:a${char}b:1:`), JSON.stringify(char)).toBeNull();
    expect(parseZeroTouchUsername(`zt1:0123456789ab:${"m".repeat(65)}:1:`)).toBeNull();
  });

  it("orders digit strings numerically and equal-width serials as printed", () => {
    expect(compareIdentifiers("999", "1000")).toBeLessThan(0);
    expect(compareIdentifiers("1000", "1000")).toBe(0);
    expect(compareIdentifiers("AB0010", "ab0009")).toBeGreaterThan(0);
  });

  it("matches every criterion set, inclusive at both ends", () => {
    const criteria = {
      models: ["RUT955"],
      serial_ranges: [
        { from: "1000", to: "1999" },
        { from: "5000", to: "5000" },
      ],
      imei_ranges: [{ from: "356938035643800", to: "356938035643899" }],
    };
    const imei = "356938035643809";
    expect(matchesZeroTouch(criteria, claims("rut955", "1000", imei))).toBe(true);
    expect(matchesZeroTouch(criteria, claims("RUT955", "1999", imei))).toBe(true);
    expect(matchesZeroTouch(criteria, claims("RUT955", "5000", imei))).toBe(true);
    expect(matchesZeroTouch(criteria, claims("RUT955", "999", imei))).toBe(false);
    expect(matchesZeroTouch(criteria, claims("RUT955", "2000", imei))).toBe(false);
    expect(matchesZeroTouch(criteria, claims("RUT955", "10000", imei))).toBe(false);
    expect(matchesZeroTouch(criteria, claims("RUT950", "1500", imei))).toBe(false);
    expect(matchesZeroTouch(criteria, claims("RUT955", "1500", "356938035643900"))).toBe(false);
    expect(matchesZeroTouch(criteria, claims("RUT955", "1500", ""))).toBe(false);
    expect(matchesZeroTouch({ models: [], serial_ranges: [], imei_ranges: [] }, claims("", "x", ""))).toBe(
      true,
    );
  });

  it("refuses a range whose end comes before its start", () => {
    const result = ZeroTouchConfigInputSchema.safeParse({
      name: "x",
      serial_ranges: [{ from: "2000", to: "1000" }],
    });
    expect(result.success).toBe(false);
    expect(ZeroTouchConfigInputSchema.parse({ name: " x " })).toMatchObject({
      name: "x",
      active: true,
      tags: [],
      template_id: null,
    });
  });
});
