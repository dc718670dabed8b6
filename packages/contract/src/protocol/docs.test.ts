import { describe, expect, it } from "vitest";
import * as protocol from "./index";

// docs/device-protocol.md shows example messages; this keeps every JSON block in it identical to one
// of the contract's EXAMPLE_* messages, which the schema tests in turn check. Node's fs is loaded
// through a specifier TypeScript does not resolve, as the contract is compiled without Node typings.
type NodeFs = { readFileSync(path: object, encoding: "utf8"): string };
const FileUrl = (globalThis as unknown as { URL: new (path: string, base: string) => object }).URL;
const NODE_FS = "node:fs";
const { readFileSync } = (await import(NODE_FS)) as NodeFs;
const here = (import.meta as unknown as { url: string }).url;
const document = readFileSync(new FileUrl("../../../../docs/device-protocol.md", here), "utf8");

const examples = Object.entries(protocol).filter(([name]) => name.startsWith("EXAMPLE_"));
const blocks = [...document.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]);

describe("docs/device-protocol.md", () => {
  it("shows JSON examples", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(examples.length);
  });

  it.each(blocks.map((block, index) => [index + 1, block]))(
    "JSON block %i is one of the contract's examples",
    (_, block) => {
      const value: unknown = JSON.parse(String(block));
      expect(examples.map(([, example]) => example)).toContainEqual(value);
    },
  );

  it("shows every example", () => {
    const shown = blocks.map((block) => JSON.parse(block) as unknown);
    for (const [name, example] of examples) expect(shown, name).toContainEqual(example);
  });

  it("gives the token test vector deriveDeviceToken computes", async () => {
    const vector = document.match(/ident\s+(\S+)\nkey\s+(\S+)\ntoken\s+(\S+)/);
    expect(vector).not.toBeNull();
    const [, ident, key, token] = vector as RegExpMatchArray;
    expect(await protocol.deriveDeviceToken(ident, key)).toBe(token);
  });
});
