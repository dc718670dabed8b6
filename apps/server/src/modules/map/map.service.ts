import { DEFAULT_DOMAIN_SETTINGS, type MapClusters, type MapClustersQuery } from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { contactRangesByStatus, toDeviceFilter } from "../devices/device-filter";
import { devicesRepo } from "../devices/devices.repo";
import { requireDeviceView } from "../devices/devices.service";
import { ListCountCache, listCountCache } from "../devices/list-count-cache";
import { mapRepo } from "./map.repo";
import { buildMapIndex, type MapIndex } from "./map-index";

/**
 * How long one filter's clustered routers serve every viewport before they are built again (and as
 * long again while being rebuilt, the old index answering). Building for 100,000 routers costs
 * about a second of CPU on a busy machine (bench/map.ts), and statuses drift with time only by
 * minutes; device writes through this server (edit, pin, import, delete, a GPS fix that moved a
 * router) forget the domain's indexes at once (ADR 045).
 */
export const MAP_INDEX_TTL_MS = 60_000;

/** Clustered routers per domain, scope and filter; few entries, as each holds a whole fleet. */
const mapIndexCache = new ListCountCache(MAP_INDEX_TTL_MS, 32);

/** POST /api/map/clusters: the clusters and lone routers in the viewport at the zoom. */
export async function readMapClusters(
  ctx: AppContext,
  session: SessionContext,
  query: MapClustersQuery,
): Promise<MapClusters> {
  const { domainId, countKey } = requireDeviceView(session);
  const { bbox, zoom, ...filterFields } = query;
  // Same reach, same filter, same index; the events filter counts the viewer's own unread events.
  const viewerKey = filterFields.events === undefined ? "" : `${session.user.id}:`;
  const key = `${listCountCache.generationOf(domainId)}:${countKey}${viewerKey}${JSON.stringify(filterFields)}`;
  const index = await mapIndexCache.get(domainId, key, () => buildIndex(ctx, session, filterFields));
  return {
    placed: index.placed,
    unplaced: index.unplaced,
    bounds: index.bounds,
    features: index.clusters(bbox, zoom),
  };
}

async function buildIndex(
  ctx: AppContext,
  session: SessionContext,
  filterFields: Omit<MapClustersQuery, "bbox" | "zoom">,
): Promise<MapIndex> {
  const { domainId, tagScope } = requireDeviceView(session);
  const domain = await devicesRepo(ctx.db).findDomainFleetSettings(domainId);
  const settings = domain?.settings ?? DEFAULT_DOMAIN_SETTINGS;
  const now = ctx.now();
  // The status filter and each router's colour are judged at one moment.
  const filter = toDeviceFilter(filterFields, contactRangesByStatus(settings.status, now));
  const rows = await mapRepo(ctx.db, session.user.id, tagScope).findMapRowsByFilter(domainId, filter);
  return buildMapIndex(rows, settings, now.getTime());
}
