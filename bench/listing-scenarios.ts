/** The listing benchmark's request mix (bench/listing.ts): each client walks it from its own starting point. */
export const SCENARIOS: [string, Record<string, unknown>][] = [
  ["default page", {}],
  ["status online, 50", { status: ["online"], size: 50 }],
  ["status critical by time", { status: ["critical"], sort: { field: "time", order: "desc" } }],
  ["tag", { tags: ["kazan"] }],
  ["two tags, 50", { tags: ["kazan", "pumps"], size: 50 }],
  ["model, 100", { model: ["RUTX11"], size: 100 }],
  ["search description", { search: "pump" }],
  ["search ident", { search: "BENCH00123" }],
  ["sort signal desc, page 5, 100", { sort: { field: "signal", order: "desc" }, size: 100, page: 5 }],
  ["warning + tag", { status: ["warning"], tags: ["kazan"] }],
  ["events with, by events", { events: "with", sort: { field: "events", order: "desc" }, size: 50 }],
  ["page 100 of 100", { page: 100, size: 100 }],
  ["signal + mode + backups", { signal: ["cellEdge"], network_mode: ["LTE"], backups: true }],
];

/** The p-th percentile (nearest rank) of `values`. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
