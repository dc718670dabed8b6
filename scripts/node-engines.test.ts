import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Issue 27 item 15: README promised Node 20 while npm install warned EBADENGINE for packages that
// declare Node 22.12. The Node the project says it needs (package.json's engines, README) must be at
// least what every installed package declares, so an install on a Node the README allows is quiet.

const root = join(import.meta.dirname, "..");
const readJson = (file: string) => JSON.parse(readFileSync(join(root, file), "utf8"));

type Version = [number, number, number];

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

function versionOf(text: string): { version: Version; parts: number } {
  const found = text.replace(/^v/, "").split(".");
  const numbers = found.filter((part) => /^\d+$/.test(part)).map(Number);
  return { version: [numbers[0] ?? 0, numbers[1] ?? 0, numbers[2] ?? 0], parts: numbers.length };
}

/** Whether one comparator (`>=22.12.0`, `^20.19.0`, `~1.2`, `<3`, `22.x`) admits `v`. */
function comparatorAdmits(comparator: string, v: Version): boolean {
  const match = comparator.match(/^(>=|<=|>|<|\^|~|=)?\s*(.+)$/);
  if (!match) return true;
  const [, op = "", rest = ""] = match;
  if (rest === "*" || rest === "x") return true;
  const { version, parts } = versionOf(rest);
  const order = compare(v, version);
  if (op === ">=") return order >= 0;
  if (op === ">") return order > 0;
  if (op === "<=") return order <= 0;
  if (op === "<") return order < 0;
  if (op === "^") return order >= 0 && v[0] === version[0];
  if (op === "~") return order >= 0 && v[0] === version[0] && (parts < 2 || v[1] === version[1]);
  // A bare or partial version: `22`, `22.x` is any 22.
  return v.slice(0, Math.max(parts, 1)).every((n, i) => n === version[i]);
}

/** Whether a range (alternatives `||` of comparators) admits `v`, as npm reads `engines.node`. */
function admits(range: string, v: Version): boolean {
  return range.split("||").some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, "$1")
      .split(/\s+/)
      .filter(Boolean)
      .every((comparator) => comparatorAdmits(comparator, v)),
  );
}

/** The lowest version `>=X.Y.Z` (package.json's own range) admits. */
function floorOf(range: string): Version {
  const match = range.trim().match(/^>=\s*(\S+)$/);
  if (!match?.[1]) throw new Error(`package.json's engines.node is not ">=version": ${range}`);
  return versionOf(match[1]).version;
}

describe("the Node the project asks for", () => {
  const declared: string = readJson("package.json").engines.node;
  const floor = floorOf(declared);

  it("is admitted by every installed package", () => {
    const packages: Record<string, { engines?: { node?: string } | string[] }> =
      readJson("package-lock.json").packages;
    const above = Object.entries(packages)
      .filter(([path, entry]) => path !== "" && !Array.isArray(entry.engines) && entry.engines?.node)
      .map(([path, entry]) => ({ path, node: (entry.engines as { node: string }).node }))
      .filter(({ node }) => !admits(node, floor))
      .map(({ path, node }) => `${path}: ${node}`);
    expect(above, `package.json asks for Node ${declared}`).toEqual([]);
  });

  it("is the one README names", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8").replace(/\s+/g, " ");
    expect(readme).toContain(`Node.js ${floor[0]}.${floor[1]} or newer`);
  });

  it("reads ranges as npm writes them", () => {
    expect(admits("^22.12.0 || ^24.0.0 || >=26.0.0", [22, 12, 0])).toBe(true);
    expect(admits("^22.12.0 || ^24.0.0 || >=26.0.0", [20, 19, 0])).toBe(false);
    expect(admits("^22.12.0 || ^24.0.0 || >=26.0.0", [23, 0, 0])).toBe(false);
    expect(admits(">= 22.x", [22, 12, 0])).toBe(true);
    expect(admits(">=14 <16", [15, 1, 0])).toBe(true);
    expect(admits("~1.2", [1, 3, 0])).toBe(false);
  });
});
