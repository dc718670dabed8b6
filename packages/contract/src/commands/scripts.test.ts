import { describe, expect, it } from "vitest";
import { renderTemplate, resolveVariables, systemVariablesSet, templateVariables } from "./scripts";

const system = { ident: "R1", model: "M", serial: "S", firmware: "F", description: "" };

describe("templates", () => {
  it("lists the variables a text uses once each, in order", () => {
    expect(templateVariables("{{b}} {{ a }} {{b}} {x}")).toEqual(["b", "a"]);
  });

  it("resolves the router's value over its tag's over the default; system variables stay the router's", () => {
    const values = {
      defaults: { apn: "d", mtu: "1500", ident: "spoof" },
      tag_values: { z: { apn: "z" }, a: { apn: "a", model: "spoof" } },
      device_values: { r2: { apn: "r2" } },
    };
    expect(resolveVariables(values, { id: "r1", tags: ["z", "a"], system })).toMatchObject({
      apn: "a",
      mtu: "1500",
      ident: "R1",
      model: "M",
    });
    expect(resolveVariables(values, { id: "r2", tags: ["a"], system }).apn).toBe("r2");
    expect(resolveVariables(values, { id: "r3", tags: [], system }).apn).toBe("d");
  });

  it("renders, or names the variables without a value", () => {
    const values = { defaults: { a: "1" }, tag_values: {}, device_values: {} };
    expect(renderTemplate("{{a}}-{{ident}}", values, { id: "x", tags: [], system })).toEqual({
      ok: true,
      text: "1-R1",
    });
    expect(renderTemplate("{{a}}{{b}}{{c}}", values, { id: "x", tags: [], system })).toEqual({
      ok: false,
      missing: ["b", "c"],
    });
  });

  it("finds system variables a save tries to set", () => {
    expect(
      systemVariablesSet({ defaults: { a: "1" }, tag_values: { t: { serial: "x" } }, device_values: {} }),
    ).toEqual(["serial"]);
  });
});
