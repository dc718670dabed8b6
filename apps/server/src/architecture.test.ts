import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CompiledQuery } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findCycle, readModuleEdges } from "./module-graph.test-support";
import moduleLayers from "./module-layers.json";
import { type DomainTables, filtersByDomain, readDomainTables, statementTables } from "./test/domain-sql";
import { DOMAIN_ID, REPO_ARGUMENTS } from "./test/repo-arguments";
import {
  allQueries,
  listRepoFunctions,
  parameterNames,
  type RepoRun,
  runAllRepoFunctions,
  SNAPSHOT_DIR,
  snapshotName,
  snapshotText,
} from "./test/repo-queries";
import { createTestDatabase, type TestDatabase } from "./test/test-db";

// docs/ARCHITECTURE.md promises: "No repo function reads or writes a domain's rows without that
// domain's id in its SQL; one that works across domains says AcrossDomains in its name." This test
// holds every repo to it by what the SQL does, not by names: test/repo-queries.ts calls every
// exported function of every `…Repo(db)` factory with generated arguments against a database that
// never connects, and test/domain-sql.ts reads the statements it records.
//
// - A domain-first function (first parameter `domainId`) must compare domain_id (or, on `domains`,
//   the id) with the domain id it was given, in every statement over a table that has a domain_id.
// - A function that takes no domain id and touches a domain's rows (a table with a domain_id, or one
//   reached through a foreign key, a device_id or a user_id) says AcrossDomains in its name.
// - A function that takes no domain id and touches no domain's rows belongs to an installation-wide
//   repo, declared below with the reason, and does not say AcrossDomains: the suffix means "reads
//   across tenants".

/**
 * Repos (or single functions) over data that belongs to the installation, not to a domain, each with
 * the reason. Their functions take no domain id; one of them that does read a domain's rows still
 * says AcrossDomains.
 */
const INSTALLATION_WIDE: Record<string, string> = {
  firmwareRepo: "software rules are root's (ADR 021): one rule fits routers of its models in every domain",
  rolloutRepo: "a rollout carries a root's software rule to routers of every domain (ADR 021)",
  licencesRepo: "licences are the installation's, not a domain's (ADR 022)",
  rateSlotsRepo: "the send slots of a bot or a webhook are shared by every domain that uses it",
  refusalsRepo: "the gateway refuses idents before any domain is known (an ident is global)",
  "maintenanceRepo.findRollupMark": "the history rollup's progress mark is one for the installation",
  "maintenanceRepo.setRollupMark": "the history rollup's progress mark is one for the installation",
  "maintenanceRepo.deleteOldRefusals": "gateway refusals belong to no domain (see refusalsRepo)",
  "signInRepo.findUnknown": "a sign-in under an unknown username has no user, so no domain",
  "signInRepo.countUnknownFailure": "a sign-in under an unknown username has no user, so no domain",
  "signInRepo.blockUnknown": "a sign-in under an unknown username has no user, so no domain",
  "fileTransfersRepo.findSoftwareFile": "a rollout's firmware file is a root's software rule's (ADR 021)",
  "policiesRepo.findDefaultPolicy":
    "the installation's default policy belongs to no domain (domain_id is null, at most one row)",
  "domainsRepo.insertDomain": "it creates the domain itself: there is no domain id before it runs",
};

function declaredInstallationWide(key: string): boolean {
  return key in INSTALLATION_WIDE || key.split(".")[0] in INSTALLATION_WIDE;
}

const ACROSS = "AcrossDomains";

let testDb: TestDatabase;
let tables: DomainTables;
let runs: RepoRun[];
let runsByFile: Map<string, RepoRun[]>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  tables = await readDomainTables(testDb.database.db);
  runsByFile = await runAllRepoFunctions();
  runs = [...runsByFile.values()].flat();
});

afterAll(async () => {
  await testDb?.drop();
});

const isDomainFirst = (run: RepoRun) => run.fn.parameters[0] === "domainId";
const touches = (run: RepoRun, set: Set<string>) =>
  allQueries(run).some((query) => statementTables(query.sql).some((table) => set.has(table)));
const describeRun = (run: RepoRun) => `${run.fn.file}: ${run.fn.key}(${run.fn.parameters.join(", ")})`;

describe("the reading of repo SQL", () => {
  it("reads parameter names as written", () => {
    expect(
      parameterNames(async function find(domainId: string, id: string, at = new Date(0)) {
        return [domainId, id, at];
      }),
    ).toEqual(["domainId", "id", "at"]);
    expect(parameterNames((tokenHash: string) => tokenHash)).toEqual(["tokenHash"]);
    expect(parameterNames(() => 1)).toEqual([]);
    expect(parameterNames(({ a }: { a: number }, b: number) => a + b)).toEqual(["{…}", "b"]);
  });

  it("finds a domain predicate only where the domain id meets domain_id", () => {
    const query = (text: string, parameters: unknown[]) => CompiledQuery.raw(text, parameters);
    const other = "00000000-0000-4000-8000-0000000000ff";
    expect(
      filtersByDomain(query(`select * from "devices" where "domain_id" = $1`, [DOMAIN_ID]), DOMAIN_ID),
    ).toBe(true);
    expect(
      filtersByDomain(
        query(`select * from devices d where d.id = $1 and $2 = d.domain_id`, [other, DOMAIN_ID]),
        DOMAIN_ID,
      ),
    ).toBe(true);
    expect(
      filtersByDomain(query(`select * from "domains" where "domains"."id" = $1`, [DOMAIN_ID]), DOMAIN_ID),
    ).toBe(true);
    expect(filtersByDomain(query(`select * from "domains" where "id" = $1`, [DOMAIN_ID]), DOMAIN_ID)).toBe(
      true,
    );
    expect(
      filtersByDomain(
        query(`insert into "events" ("domain_id", "message") values ($1, $2)`, [DOMAIN_ID, "m"]),
        DOMAIN_ID,
      ),
    ).toBe(true);
    // The domain id compared with another column, or domain_id compared with another value.
    expect(filtersByDomain(query(`select * from "devices" where "id" = $1`, [DOMAIN_ID]), DOMAIN_ID)).toBe(
      false,
    );
    expect(
      filtersByDomain(
        query(`select * from "devices" where "domain_id" = $1 and "id" = $2`, [other, DOMAIN_ID]),
        DOMAIN_ID,
      ),
    ).toBe(false);
    expect(
      filtersByDomain(query(`select * from "devices" join "events" on "id" = $1`, [DOMAIN_ID]), DOMAIN_ID),
    ).toBe(false);
    expect(
      statementTables(`select * from "devices" as "d" inner join events e on e.device_id = d.id`),
    ).toEqual(["devices", "events"]);
  });
});

describe("repos", () => {
  it("are all found and all run", async () => {
    const { filesWithoutFactory } = await listRepoFunctions();
    // Query functions live in `…Repo(db)` factories; a repo file without one would escape this test.
    expect(filesWithoutFactory).toEqual([]);
    expect(runs.length).toBeGreaterThan(300);
    // A function that sent nothing was not checked: give it arguments in test/repo-arguments.ts.
    expect(runs.filter((run) => run.queries.length === 0).map(describeRun)).toEqual([]);
    // One snapshot per repo file, named by the file: two files of one name would share it.
    const names = [...runsByFile.keys()].map(snapshotName);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
    const functions = new Set(runs.map((run) => run.fn.key));
    expect(Object.keys(REPO_ARGUMENTS).filter((key) => !functions.has(key))).toEqual([]);
  });

  it("match their SQL snapshots in src/queries (refresh: npm run queries -w apps/server)", () => {
    const stale: string[] = [];
    const expected = new Set<string>();
    for (const [file, fileRuns] of runsByFile) {
      const name = snapshotName(file);
      expected.add(name);
      const path = join(SNAPSHOT_DIR, name);
      if (!existsSync(path) || readFileSync(path, "utf8") !== snapshotText(file, fileRuns)) stale.push(name);
    }
    const extra = existsSync(SNAPSHOT_DIR)
      ? readdirSync(SNAPSHOT_DIR).filter((name) => !expected.has(name))
      : [];
    expect(stale, "the SQL snapshots are stale: run `npm run queries -w apps/server` and review").toEqual([]);
    expect(extra, "snapshots of repos that are gone: run `npm run queries -w apps/server`").toEqual([]);
  });

  it("filter every statement over a domain's table by the domain id they take first", () => {
    const offenders: string[] = [];
    for (const run of runs.filter(isDomainFirst)) {
      for (const query of allQueries(run)) {
        const owned = statementTables(query.sql).filter((table) => tables.filtered.has(table));
        if (owned.length > 0 && !filtersByDomain(query, DOMAIN_ID)) {
          offenders.push(`${describeRun(run)} reads ${[...new Set(owned)].join(", ")} without its domain id`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("that take no domain id say AcrossDomains when they touch a domain's rows", () => {
    const offenders = runs
      .filter((run) => !isDomainFirst(run) && !run.fn.key.includes(ACROSS) && touches(run, tables.owned))
      .filter((run) => !(run.fn.key in INSTALLATION_WIDE))
      .map(describeRun);
    expect(offenders).toEqual([]);
  });

  it("that take no domain id and touch no domain's rows are declared installation-wide", () => {
    const offenders = runs
      .filter((run) => !isDomainFirst(run) && !run.fn.key.includes(ACROSS) && !touches(run, tables.owned))
      .filter((run) => !declaredInstallationWide(run.fn.key))
      .map(describeRun);
    expect(offenders).toEqual([]);
  });

  it("say AcrossDomains only when they touch a domain's rows", () => {
    const offenders = runs
      .filter((run) => run.fn.key.includes(ACROSS) && !touches(run, tables.owned))
      .map(
        (run) =>
          `${describeRun(run)} touches no domain's rows: drop the suffix, declare it installation-wide`,
      );
    expect(offenders).toEqual([]);
  });

  it("keep no installation-wide declaration that is no longer needed", () => {
    const needed = (key: string) =>
      runs.some(
        (run) =>
          (run.fn.key === key || run.fn.key.startsWith(`${key}.`)) &&
          !isDomainFirst(run) &&
          !run.fn.key.includes(ACROSS),
      );
    expect(Object.keys(INSTALLATION_WIDE).filter((key) => !needed(key))).toEqual([]);
  });
});

// docs/ARCHITECTURE.md promises: "No module imports one above it, and the module graph has no
// cycle." A module is a folder of modules/; its layer is in module-layers.json (the import rules
// read the same file). This holds the folder graph, where dependency-cruiser sees files.
const SOURCE_ROOT = import.meta.dirname;

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
