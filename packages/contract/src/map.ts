import { z } from "zod";
import { DeviceListRequestSchema } from "./devices";
import { DEVICE_STATUSES } from "./lists";
import { DeviceStatusSchema } from "./statusSchemas";

// The fleet map (issue 31, ADR 045): clusters of the domain's positioned routers for one viewport,
// computed by the server, filtered like the device list.

/** The deepest zoom the server clusters at; past it every router stands alone. */
export const MAP_MAX_CLUSTER_ZOOM = 16;

/**
 * POST /api/map/clusters: the device list's filters (without page, size, sort, facets), the
 * viewport `[west, south, east, north]` in degrees (west > east crosses the antimeridian) and the
 * map's whole zoom level.
 */
export const MapClustersRequestSchema = DeviceListRequestSchema.omit({
  page: true,
  size: true,
  sort: true,
  facets: true,
}).extend({
  bbox: z.tuple([
    z.number().min(-180).max(180),
    z.number().min(-90).max(90),
    z.number().min(-180).max(180),
    z.number().min(-90).max(90),
  ]),
  zoom: z.number().int().min(0).max(24),
});
/** Body of POST /api/map/clusters. */
export type MapClustersRequest = z.input<typeof MapClustersRequestSchema>;
/** Parsed body of POST /api/map/clusters. */
export type MapClustersQuery = z.output<typeof MapClustersRequestSchema>;

/** Routers of a cluster by status: every status present, 0 when none. */
export const StatusCountsSchema = z.object(
  Object.fromEntries(DEVICE_STATUSES.map((status) => [status, z.number().int()])) as Record<
    (typeof DEVICE_STATUSES)[number],
    z.ZodNumber
  >,
);

/** A group of nearby routers: where to draw it, how many by status, and the zoom that opens it. */
export const MapClusterSchema = z.object({
  kind: z.literal("cluster"),
  id: z.number().int(),
  latitude: z.number(),
  longitude: z.number(),
  count: z.number().int(),
  statuses: StatusCountsSchema,
  expansion_zoom: z.number().int(),
});

/** A router standing alone at this zoom. */
export const MapRouterSchema = z.object({
  kind: z.literal("router"),
  id: z.string(),
  ident: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  status: DeviceStatusSchema,
});

/** Answer of POST /api/map/clusters. */
export const MapClustersSchema = z.object({
  /** Routers matching the filters that have a position, anywhere (not only in the viewport). */
  placed: z.number().int(),
  /** Routers matching the filters without a position (not on the map). */
  unplaced: z.number().int(),
  /** `[west, south, east, north]` around every placed router matching the filters; null when none is. */
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  features: z.array(z.discriminatedUnion("kind", [MapClusterSchema, MapRouterSchema])),
});
/** Answer of POST /api/map/clusters. */
export type MapClusters = z.infer<typeof MapClustersSchema>;
/** One feature of {@link MapClusters}. */
export type MapFeature = MapClusters["features"][number];

/** Answer of POST /api/map/style: the tiles' style JSON URL (MAP_STYLE_URL), null for a plain background. */
export const MapStyleSchema = z.object({ style_url: z.string().nullable() });
/** Answer of POST /api/map/style. */
export type MapStyle = z.infer<typeof MapStyleSchema>;
