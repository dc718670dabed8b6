import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

// The server's module graph, read from the source text: one node per feature folder
// (modules/<name>), "platform" for the floor and "root" for app.ts, main.ts and the wiring beside
// them. Test code (*.test.ts, *.test-support.ts, *.cases.ts, test/) is left out: a test of one
// module may start the whole app. Type-only imports count, as they do for the import rules.

const TEST_FILE = /\.(test|test-support|cases)\.ts$/;
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g;

/** One import between two different module folders. */
export interface ModuleEdge {
  from: string;
  to: string;
  /** The importing file and the imported one, relative to the source root. */
  files: string[];
}

/** The folder a source file belongs to. */
export function moduleOf(file: string): string {
  const feature = /^modules\/([^/]+)\//.exec(file);
  if (feature) return feature[1];
  return file.startsWith("platform/") ? "platform" : "root";
}

/** Every production import between module folders under `sourceRoot`. */
export function readModuleEdges(sourceRoot: string): Map<string, ModuleEdge> {
  const edges = new Map<string, ModuleEdge>();
  const files = readdirSync(sourceRoot, { recursive: true, encoding: "utf8" }).filter(
    (file) => file.endsWith(".ts") && !TEST_FILE.test(file) && !file.startsWith("test/"),
  );
  for (const file of files) {
    const from = moduleOf(file);
    for (const [, specifier] of readFileSync(join(sourceRoot, file), "utf8").matchAll(IMPORT)) {
      const target = relative(sourceRoot, resolve(sourceRoot, dirname(file), specifier));
      const to = moduleOf(target);
      if (from === to) continue;
      const key = `${from} → ${to}`;
      const edge = edges.get(key) ?? { from, to, files: [] };
      edge.files.push(`${file} → ${target}`);
      edges.set(key, edge);
    }
  }
  return edges;
}

/** A cycle of the graph as its nodes in order (first repeated last), or null when it has none. */
export function findCycle(edges: Iterable<Pick<ModuleEdge, "from" | "to">>): string[] | null {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    const onPath = path.indexOf(node);
    if (onPath >= 0) return [...path.slice(onPath), node];
    if (done.has(node)) return null;
    path.push(node);
    for (const to of next.get(node) ?? []) {
      const cycle = visit(to);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(node);
    return null;
  };
  for (const node of [...next.keys()].sort()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}
