import type { MapClustersRequest } from "@cellfleet/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { mapKeys } from "./keys";
import { getMapClusters, getMapStyle } from "./map.api";

/** One viewport's clusters; the previous ones stay drawn while a pan or zoom loads. */
export function mapClustersQueryOptions(request: MapClustersRequest) {
  return queryOptions({
    queryKey: mapKeys.viewport(request),
    queryFn: ({ signal }) => getMapClusters(request, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/** The tiles' style URL: a server setting, read once. */
export function mapStyleQueryOptions() {
  return queryOptions({
    queryKey: mapKeys.style(),
    queryFn: ({ signal }) => getMapStyle(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
