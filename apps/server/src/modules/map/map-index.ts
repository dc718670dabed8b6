import {
  computeDeviceStatus,
  DEVICE_STATUSES,
  type DeviceStatus,
  type DomainSettings,
  MAP_MAX_CLUSTER_ZOOM,
  type MapClusters,
  type MapFeature,
} from "@cellfleet/contract";
import Supercluster, { type ClusterFeature, type PointFeature } from "supercluster";
import type { MapRow } from "./map.repo";

type StatusCounts = Record<DeviceStatus, number>;
/** A router's own coordinates ride along: supercluster answers points re-projected, off in the 14th digit. */
type RouterProps = { id: string; ident: string; status: DeviceStatus; latitude: number; longitude: number };
/** Flat, as supercluster copies a cluster's properties shallowly before reducing into them. */
type ClusterProps = StatusCounts;

const noCounts = (): StatusCounts =>
  Object.fromEntries(DEVICE_STATUSES.map((status) => [status, 0])) as StatusCounts;

/** One filter's routers, clustered once for every zoom (supercluster), asked per viewport. */
export interface MapIndex {
  placed: number;
  unplaced: number;
  bounds: MapClusters["bounds"];
  clusters(bbox: [number, number, number, number], zoom: number): MapClusters["features"];
}

/**
 * Builds the index of a filter's routers with each router's status judged at `nowMs`; each cluster
 * carries its routers' counts by status (summed by supercluster's map/reduce).
 */
export function buildMapIndex(
  rows: readonly MapRow[],
  settings: Pick<DomainSettings, "status">,
  nowMs: number,
): MapIndex {
  const points: PointFeature<RouterProps>[] = [];
  let [west, south, east, north] = [180, 90, -180, -90];
  for (const row of rows) {
    if (row.latitude === null || row.longitude === null) continue;
    west = Math.min(west, row.longitude);
    east = Math.max(east, row.longitude);
    south = Math.min(south, row.latitude);
    north = Math.max(north, row.latitude);
    points.push({
      type: "Feature",
      geometry: { type: "Point", coordinates: [row.longitude, row.latitude] },
      properties: {
        id: row.id,
        ident: row.ident,
        latitude: row.latitude,
        longitude: row.longitude,
        status: computeDeviceStatus(row.last_contact_ms, nowMs, settings.status),
      },
    });
  }
  const index = new Supercluster<RouterProps, ClusterProps>({
    radius: 60,
    maxZoom: MAP_MAX_CLUSTER_ZOOM,
    map: (props) => {
      const counts = noCounts();
      counts[props.status] = 1;
      return counts;
    },
    reduce: (into, from) => {
      for (const status of DEVICE_STATUSES) into[status] += from[status];
    },
  }).load(points);
  return {
    placed: points.length,
    unplaced: rows.length - points.length,
    bounds: points.length === 0 ? null : [west, south, east, north],
    clusters: (bbox, zoom) => index.getClusters(bbox, zoom).map((feature) => toMapFeature(index, feature)),
  };
}

function toMapFeature(
  index: Supercluster<RouterProps, ClusterProps>,
  feature: ClusterFeature<ClusterProps> | PointFeature<RouterProps>,
): MapFeature {
  const props = feature.properties;
  if ("cluster" in props && props.cluster) {
    // A micro-degree (about 10 cm) is more than a cluster's centre needs.
    const [longitude, latitude] = (feature.geometry.coordinates as [number, number]).map(
      (value) => Math.round(value * 1e6) / 1e6,
    ) as [number, number];
    const id = props.cluster_id;
    return {
      kind: "cluster",
      id,
      latitude,
      longitude,
      count: props.point_count,
      statuses: Object.fromEntries(DEVICE_STATUSES.map((status) => [status, props[status]])) as StatusCounts,
      expansion_zoom: Math.min(index.getClusterExpansionZoom(id), MAP_MAX_CLUSTER_ZOOM + 1),
    };
  }
  const { id, ident, latitude, longitude, status } = props as RouterProps;
  return { kind: "router", id, ident, latitude, longitude, status };
}
