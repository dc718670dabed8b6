import { describe, expect, it } from "vitest";
import { typeChips } from "./commandTypes";

const types = [
  { _id: "1", type: "reboot", system: true },
  { _id: "2", type: "shell", system: true },
  { _id: "3", type: "restart-modem", system: false },
  { _id: "4", type: "flush-dns", system: false },
];

describe("typeChips", () => {
  it("lists a used custom type once, among the custom types, for a person who manages them (issue 27)", () => {
    const chips = typeChips(["restart-modem", "reboot", "shell"], types, true);
    expect(chips.quick).toEqual(["reboot", "shell"]);
    expect(chips.custom.map((option) => option.type)).toEqual(["restart-modem", "flush-dns"]);
    const all = [...chips.quick, ...chips.custom.map((option) => option.type)];
    expect(new Set(all).size).toBe(all.length);
  });

  it("keeps the quick list whole for everybody else", () => {
    expect(typeChips(["restart-modem", "reboot"], types, false)).toEqual({
      quick: ["restart-modem", "reboot"],
      custom: [],
    });
  });
});
