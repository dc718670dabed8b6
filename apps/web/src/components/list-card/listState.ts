import { DEFAULT_ROWS_PER_PAGE, PAGE_SIZE_OPTIONS } from "@cellfleet/contract";

/** Whether rows with events, without them, or all rows are listed. */
export type EventsFilter = "all" | "with" | "without";

/** A sort: a column name and a direction. */
export interface ListSort {
  field: string;
  direction: "asc" | "desc";
}

/** Every choice a person makes on a list card; persisted per list by `useListState`. */
export interface ListState {
  search: string;
  tags: string[];
  events: EventsFilter;
  /** Extra facet choices of a list (status, model…): facet name → chosen values. */
  facets: Record<string, string[]>;
  sort: ListSort | null;
  page: number;
  pageSize: number;
}

/** The state of a list nobody has touched. */
export function initialListState(sort: ListSort | null = null): ListState {
  return { search: "", tags: [], events: "all", facets: {}, sort, page: 0, pageSize: DEFAULT_ROWS_PER_PAGE };
}

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

/** Guards of the persisted parts, so a stale or hand-edited storage value is ignored. */
export const listGuards = {
  strings: isStringArray,
  pageSize: (value: unknown): value is number => PAGE_SIZE_OPTIONS.some((size) => size === value),
  page: (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0,
  sort: (value: unknown): value is ListSort | null =>
    value === null ||
    (typeof value === "object" &&
      typeof (value as ListSort).field === "string" &&
      ((value as ListSort).direction === "asc" || (value as ListSort).direction === "desc")),
  filters: (value: unknown): value is Pick<ListState, "tags" | "events" | "facets"> => {
    if (typeof value !== "object" || value === null) return false;
    const { tags, events, facets } = value as Partial<ListState>;
    return (
      isStringArray(tags) &&
      (events === "all" || events === "with" || events === "without") &&
      typeof facets === "object" &&
      facets !== null &&
      Object.values(facets).every(isStringArray)
    );
  },
};

/** One active filter shown as a chip: which part of the state it is and the value it holds. */
export interface ActiveFilter {
  kind: "search" | "tag" | "events" | "facet";
  facet?: string;
  value: string;
}

/** The active filters of a state, in the order their chips are shown. */
export function activeFilters(
  state: Pick<ListState, "search" | "tags" | "events" | "facets">,
): ActiveFilter[] {
  const out: ActiveFilter[] = [];
  if (state.search.trim()) out.push({ kind: "search", value: state.search.trim() });
  for (const tag of state.tags) out.push({ kind: "tag", value: tag });
  if (state.events !== "all") out.push({ kind: "events", value: state.events });
  for (const [facet, values] of Object.entries(state.facets))
    for (const value of values) out.push({ kind: "facet", facet, value });
  return out;
}

/** The state without one active filter; the page goes back to the first. */
export function removeFilter(state: ListState, filter: ActiveFilter): ListState {
  switch (filter.kind) {
    case "search":
      return { ...state, search: "", page: 0 };
    case "tag":
      return { ...state, tags: state.tags.filter((tag) => tag !== filter.value), page: 0 };
    case "events":
      return { ...state, events: "all", page: 0 };
    case "facet": {
      const name = filter.facet ?? "";
      const rest = (state.facets[name] ?? []).filter((value) => value !== filter.value);
      const facets = { ...state.facets };
      if (rest.length) facets[name] = rest;
      else delete facets[name];
      return { ...state, facets, page: 0 };
    }
  }
}

/** Toggles one value of a facet; the page goes back to the first. */
export function toggleFacet(state: ListState, facet: string, value: string): ListState {
  const current = state.facets[facet] ?? [];
  const next = current.includes(value) ? current.filter((item) => item !== value) : [...current, value];
  const facets = { ...state.facets };
  if (next.length) facets[facet] = next;
  else delete facets[facet];
  return { ...state, facets, page: 0 };
}
