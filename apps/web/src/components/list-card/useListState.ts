import { useCallback, useEffect, useState } from "react";
import { initialListState, type ListSort, type ListState, listGuards } from "./listState";
import { readListChoice, writeListChoice } from "./listStorage";

function readState(prefix: string, defaultSort: ListSort | null): ListState {
  const base = initialListState(defaultSort);
  const filters = readListChoice(prefix, "filters", null, (value): value is ListState =>
    listGuards.filters(value),
  );
  return {
    ...base,
    search: readListChoice(prefix, "search", "", (value): value is string => typeof value === "string"),
    ...(filters ? { tags: filters.tags, events: filters.events, facets: filters.facets } : {}),
    sort: readListChoice(prefix, "sort", defaultSort, listGuards.sort),
    page: readListChoice(prefix, "page", 0, listGuards.page),
    pageSize: readListChoice(prefix, "pageSize", base.pageSize, listGuards.pageSize),
  };
}

/**
 * The choices of one list card, remembered in localStorage under the list's prefix: sort and
 * filters (spec section 9), page and page size (spec section 2), and the last search.
 */
export function useListState(prefix: string, defaultSort: ListSort | null = null) {
  const [state, setState] = useState<ListState>(() => readState(prefix, defaultSort));

  useEffect(() => {
    writeListChoice(prefix, "filters", { tags: state.tags, events: state.events, facets: state.facets });
    writeListChoice(prefix, "search", state.search);
    writeListChoice(prefix, "sort", state.sort);
    writeListChoice(prefix, "page", state.page);
    writeListChoice(prefix, "pageSize", state.pageSize);
  }, [prefix, state]);

  const update = useCallback((patch: Partial<ListState> | ((previous: ListState) => ListState)) => {
    setState((previous) => (typeof patch === "function" ? patch(previous) : { ...previous, ...patch }));
  }, []);

  return [state, update] as const;
}
