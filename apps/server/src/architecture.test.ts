import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { findCycle, readModuleEdges } from "./module-graph.test-support";
import moduleLayers from "./module-layers.json";
import type { DB } from "./platform/db/schema";
import { createOfflineDb } from "./test/offline-db";

// docs/ARCHITECTURE.md promises: "No repo function over domain-owned data omits the domain id; one
// that reads across domains says AcrossDomains in its name." This test holds every repo to it.
//
// How it reads a repo: a repo is a `*.repo.ts` file whose exported `…Repo(db)` factories answer an
// object of query functions. The test calls each factory with a Kysely that never connects and reads
// every function's first parameter from its source text (Function.prototype.toString: the test runs
// the TypeScript with its types stripped, so parameter names are as written). A function passes when
// that parameter is `domainId` or its name says `AcrossDomains`.

/** Functions over data that no domain owns, each with the reason. Keep it short and explained. */
const EXEMPT: Record<string, string> = {
  "policiesRepo.findDefaultPolicy":
    "the installation's default policy belongs to no domain (domain_id is null, at most one row)",
  "domainsRepo.insertDomain": "it creates the domain itself: there is no domain id before it runs",
};

const SOURCE_ROOT = import.meta.dirname;

/** A database handle for building factories: queries compile but nothing is ever sent. */
const offlineDb = createOfflineDb();

function repoFiles(): string[] {
  return readdirSync(SOURCE_ROOT, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".repo.ts"))
    .sort();
}

/** The name of a function's first parameter as written, or null when it has none (or destructures). */
export function firstParameterName(fn: (...args: never[]) => unknown): string | null {
  // `async name(a, b) {`, `name(a) {`, `function (a) {` or `(a) =>`: the text up to the first "(".
  const match = /^[^(]*\(\s*([A-Za-z_$][\w$]*)/.exec(fn.toString());
  return match ? match[1] : null;
}

interface RepoFunction {
  file: string;
  key: string;
  firstParameter: string | null;
}

async function readRepoFunctions(): Promise<{ functions: RepoFunction[]; filesWithoutFactory: string[] }> {
  const functions: RepoFunction[] = [];
  const filesWithoutFactory: string[] = [];
  for (const file of repoFiles()) {
    const module = (await import(join(SOURCE_ROOT, file))) as Record<string, unknown>;
    const factories = Object.entries(module).filter(
      (entry): entry is [string, (db: Kysely<DB>) => Record<string, unknown>] =>
        entry[0].endsWith("Repo") && typeof entry[1] === "function",
    );
    if (factories.length === 0) filesWithoutFactory.push(file);
    for (const [factoryName, factory] of factories) {
      for (const [name, member] of Object.entries(factory(offlineDb))) {
        if (typeof member !== "function") continue;
        functions.push({
          file: relative(SOURCE_ROOT, join(SOURCE_ROOT, file)),
          key: `${factoryName}.${name}`,
          firstParameter: firstParameterName(member as (...args: never[]) => unknown),
        });
      }
    }
  }
  return { functions, filesWithoutFactory };
}

function keepsTheDomainRule(fn: RepoFunction): boolean {
  return fn.firstParameter === "domainId" || fn.key.includes("AcrossDomains");
}

describe("repos", () => {
  it("reads parameter names as written", () => {
    expect(
      firstParameterName(async function find(domainId: string, id: string) {
        return [domainId, id];
      }),
    ).toBe("domainId");
    expect(firstParameterName((tokenHash: string) => tokenHash)).toBe("tokenHash");
    expect(firstParameterName(() => 1)).toBeNull();
    const methods = {
      async listThings(domainId: string) {
        return domainId;
      },
    };
    expect(firstParameterName(methods.listThings)).toBe("domainId");
  });

  it("take the domain id first, or say AcrossDomains in their name", async () => {
    const { functions, filesWithoutFactory } = await readRepoFunctions();
    // Query functions live in `…Repo(db)` factories; a repo file without one would escape this test.
    expect(filesWithoutFactory).toEqual([]);
    expect(functions.length).toBeGreaterThan(50);
    const offenders = functions
      .filter((fn) => !keepsTheDomainRule(fn) && !(fn.key in EXEMPT))
      .map((fn) => `${fn.file}: ${fn.key}(${fn.firstParameter ?? ""}…)`);
    expect(offenders).toEqual([]);
  });

  it("keep no exemption that is no longer needed", async () => {
    const { functions } = await readRepoFunctions();
    const needed = new Set(functions.filter((fn) => !keepsTheDomainRule(fn)).map((fn) => fn.key));
    expect(Object.keys(EXEMPT).filter((key) => !needed.has(key))).toEqual([]);
  });
});

// docs/ARCHITECTURE.md promises: "No module imports one above it, and the module graph has no
// cycle." A module is a folder of modules/; its layer is in module-layers.json (the import rules
// read the same file). This holds the folder graph, where dependency-cruiser sees files.
describe("modules", () => {
  const edges = [...readModuleEdges(SOURCE_ROOT).values()];
  const layerOf = new Map(
    moduleLayers.layers.flatMap((layer, rank) => layer.modules.map((name) => [name, rank] as const)),
  );

  it("each sit in one layer", () => {
    const folders = readdirSync(join(SOURCE_ROOT, "modules")).sort();
    const listed = moduleLayers.layers.flatMap((layer) => layer.modules);
    expect(listed.filter((name, index) => listed.indexOf(name) !== index)).toEqual([]);
    expect([...listed].sort()).toEqual(folders);
  });

  it("import none above them, and platform imports none", () => {
    const upward = edges
      .filter(({ from, to }) => {
        if (to === "root") return from !== "root";
        if (from === "platform") return to !== "platform";
        const fromRank = layerOf.get(from);
        const toRank = layerOf.get(to);
        return fromRank !== undefined && toRank !== undefined && toRank < fromRank;
      })
      .flatMap((edge) => edge.files);
    expect(edges.length).toBeGreaterThan(50);
    expect(upward).toEqual([]);
  });

  it("import one another without a cycle", () => {
    const cycle = findCycle(edges);
    const through = (cycle ?? []).slice(1).flatMap((to, index) => {
      const from = cycle?.[index];
      return edges.find((edge) => edge.from === from && edge.to === to)?.files ?? [];
    });
    expect({ cycle: cycle?.join(" → ") ?? null, through }).toEqual({ cycle: null, through: [] });
  });

  it("finds a cycle when there is one", () => {
    const graph = [
      { from: "a", to: "b" },
      { from: "b", to: "c" },
      { from: "c", to: "b" },
    ];
    expect(findCycle(graph)).toEqual(["b", "c", "b"]);
    expect(findCycle(graph.slice(0, 2))).toBeNull();
  });
});
