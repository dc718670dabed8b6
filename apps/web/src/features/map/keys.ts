import type { MapClustersRequest } from "@cellfleet/contract";

/** Query keys of the fleet map. */
export const mapKeys = {
  all: ["map"] as const,
  clusters: () => [...mapKeys.all, "clusters"] as const,
  viewport: (request: MapClustersRequest) => [...mapKeys.clusters(), request] as const,
  style: () => [...mapKeys.all, "style"] as const,
};
