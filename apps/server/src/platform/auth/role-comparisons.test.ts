import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Keeps docs/ARCHITECTURE.md's invariant true: no role number is compared outside the contract's
// permission table (packages/contract/src/permissions.ts). Server, web and contract sources are
// read line by line; a role check anywhere else names its file and line here.

const ROOT = fileURLToPath(new URL("../../../../../", import.meta.url));
const SOURCES = ["apps/server/src", "apps/web/src", "packages/contract/src"];
const TABLE = "packages/contract/src/permissions.ts";

const ROLE_CHECKS: { name: string; pattern: RegExp }[] = [
  { name: "role compared with a number", pattern: /\brole\b\s*(===|!==|==|!=|<=|>=|<|>)\s*(\d|Role\.)/ },
  {
    name: "number compared with a role",
    pattern: /(\b\d|Role\.\w+)\s*(===|!==|==|!=|<=|>=)\s*[\w?.]*\brole\b/,
  },
  { name: "a Role constant compared", pattern: /(===|!==)\s*Role\.(Superuser|Admin|Helper|Operator)\b/ },
  { name: "switch over a role", pattern: /switch\s*\(\s*[\w?.]*\brole\s*\)/ },
  { name: "the old role guard", pattern: /\brequireRole\s*\(/ },
  {
    name: "the old role helpers",
    pattern: /\b(canAddUsers|canDeleteUsers|canEditUser|canSeePolicyColumn)\s*\(/,
  },
  { name: "the old approval helpers", pattern: /\b(actionNeedsApproval|canApproveAction)\s*\(/ },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every line of the checked sources that compares a role, as `file:line: text (why)`. */
function findRoleChecks(): string[] {
  const found: string[] = [];
  for (const file of SOURCES.flatMap((dir) => sourceFiles(join(ROOT, dir)))) {
    const name = relative(ROOT, file);
    if (name === TABLE) continue;
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, index) => {
        const code = line.replace(/\/\/.*$/, "");
        for (const check of ROLE_CHECKS) {
          if (check.pattern.test(code)) found.push(`${name}:${index + 1}: ${line.trim()} (${check.name})`);
        }
      });
  }
  return found;
}

describe("no role number is compared outside the permission table", () => {
  it("finds the sources it guards", () => {
    const files = SOURCES.flatMap((dir) => sourceFiles(join(ROOT, dir))).map((file) => relative(ROOT, file));
    expect(files).toContain(TABLE);
    expect(files).toContain("apps/web/src/features/devices/DevicePage.tsx");
    expect(files).toContain("apps/server/src/modules/users/users-write.service.ts");
  });

  it("would see the checks it forbids", () => {
    const samples = [
      "if (session.role !== 1) {",
      "user?.role === Role.Admin",
      "2 === user.role",
      "requireRole([2])",
    ];
    for (const sample of samples)
      expect(
        ROLE_CHECKS.some((check) => check.pattern.test(sample)),
        sample,
      ).toBe(true);
    expect(ROLE_CHECKS.some((check) => check.pattern.test("role: 2,"))).toBe(false);
  });

  it("finds none in server, web and contract sources", () => {
    expect(findRoleChecks()).toEqual([]);
  });
});
