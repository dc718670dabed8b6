import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles, srcDir } from "../locales/localeFiles.test-support";
import { allImportsOf } from "../test/imports.test-support";

// The web's features may use one another, but never in a circle (docs/ARCHITECTURE.md): what
// several features share lives in components/ (shared UI, labels, formatters, form fields) or app/
// (the http client, the query keys other features invalidate). An import counts whether it brings
// code, types only or a lazy chunk; tests are left out. dependency-cruiser leaves .tsx files out
// (ADR 010), so this walks the source text, .tsx included.

const featuresDir = join(srcDir, "features");

/** The feature a file belongs to: the first folder under features/, or null outside them. */
function featureOf(file: string): string | null {
  const path = relative(featuresDir, file);
  return path.startsWith("..") ? null : (path.split(sep)[0] ?? null);
}

/** Feature → the features it imports, with one import that shows each edge. */
function featureGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(featuresDir)) {
    const from = featureOf(file);
    if (from === null) continue;
    for (const target of allImportsOf(file)) {
      const to = featureOf(target);
      if (to === null || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${relative(srcDir, file)} → ${relative(srcDir, target)}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Every circle of the graph as a path of nodes (the first node repeated at the end), found once each. */
export function cyclesOf(graph: ReadonlyMap<string, ReadonlyMap<string, unknown>>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string) => {
    const at = path.indexOf(node);
    if (at >= 0) {
      cycles.push([...path.slice(at), node]);
      return;
    }
    if (done.has(node)) return;
    path.push(node);
    for (const next of graph.get(node)?.keys() ?? []) visit(next);
    path.pop();
    done.add(node);
  };
  for (const node of [...graph.keys()].sort()) visit(node);
  return cycles;
}

describe("feature imports", () => {
  it("finds a circle when there is one", () => {
    const edge = (...to: string[]) => new Map(to.map((name) => [name, ""]));
    const graph = new Map([
      ["commands", edge("devices")],
      ["devices", edge("events", "files")],
      ["events", edge("commands")],
      ["files", edge()],
    ]);
    expect(cyclesOf(graph)).toEqual([["commands", "devices", "events", "commands"]]);
    expect(cyclesOf(new Map([["devices", edge("files")]]))).toEqual([]);
  });

  it("has no circle between the web's features", () => {
    const graph = featureGraph();
    expect(graph.size).toBeGreaterThan(5);
    const shown = cyclesOf(graph).map((cycle) =>
      cycle.slice(1).map((to, index) => graph.get(cycle[index] as string)?.get(to)),
    );
    expect(shown).toEqual([]);
  });
});
