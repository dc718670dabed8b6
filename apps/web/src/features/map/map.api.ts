import type { MapClusters, MapClustersRequest, MapStyle } from "@cellfleet/contract";
import { apiRequest } from "../../app/api/http";

/** POST /api/map/clusters: the clusters and lone routers of a viewport, filtered like the device list. */
export function getMapClusters(request: MapClustersRequest, signal?: AbortSignal): Promise<MapClusters> {
  return apiRequest("POST /api/map/clusters", { body: { ...request }, signal });
}

/** POST /api/map/style: the tiles' style JSON URL, or null for a plain background. */
export function getMapStyle(signal?: AbortSignal): Promise<MapStyle> {
  return apiRequest("POST /api/map/style", { body: {}, signal });
}
