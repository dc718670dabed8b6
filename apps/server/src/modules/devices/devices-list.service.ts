import {
  COLLECT_TYPES,
  CSV_EXPORT_CHUNK,
  type DashboardTotals,
  DEFAULT_DOMAIN_SETTINGS,
  DEVICE_STATUSES,
  type DeviceDetail,
  type DeviceFacets,
  type DeviceListQuery,
  type DeviceStatus,
  type DomainSettings,
  FACET_TOP_N,
  isCollectFresh,
  SIGNAL_QUALITIES,
  type TagFrequency,
  type TagScope,
} from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import type { CsvCell } from "../../platform/http/csv";
import { JsonLine } from "../../platform/http/ndjson";
import {
  type ContactRange,
  CSQ_RANGES,
  contactRangesByStatus,
  type DeviceFilter,
  toDeviceFilter,
} from "./device-filter";
import { toDeviceDto } from "./devices.mapper";
import { devicesRepo } from "./devices.repo";
import { requireDeviceDomain, requireDeviceView } from "./devices.service";
import { devicesListRepo, isChosenByUnread, type SharedDeviceLine } from "./devices-list.repo";
import { LIST_COUNT_TTL_MS, listCountCache } from "./list-count-cache";
import { LIST_PAGE_TTL_MS, listPageCache } from "./list-page-cache";

/** The settings the list and dashboard read: thresholds and copies (not the zone). */
type FleetSettings = Omit<DomainSettings, "time_zone" | "rollouts" | "remote_access">;

async function domainSettings(ctx: AppContext, domainId: string): Promise<FleetSettings> {
  const domain = await devicesRepo(ctx.db).findDomainFleetSettings(domainId);
  return domain?.settings ?? DEFAULT_DOMAIN_SETTINGS;
}

/** The domain's settings for the hot paths (list, dashboard): shared for a moment, like the totals. */
function sharedDomainSettings(ctx: AppContext, domainId: string): Promise<FleetSettings> {
  return listCountCache.get(domainId, "settings", () => domainSettings(ctx, domainId));
}

function warningMinutes(settings: FleetSettings): number {
  return settings.status.find((entry) => entry.name === "warning")?.minutes ?? 60;
}

/**
 * POST /api/devices/: the NDJSON lines of one page in batches — the header with the devices, then
 * the facets when asked. Totals and facets are shared between identical filters for a moment (see
 * ListCountCache).
 */
export async function* listDevices(
  ctx: AppContext,
  session: SessionContext,
  query: DeviceListQuery,
): AsyncGenerator<unknown[]> {
  const { domainId, tagScope, countKey } = requireDeviceView(session);
  const settings = await sharedDomainSettings(ctx, domainId);
  // One moment for the whole answer: the status filter, each line's status and the facets agree.
  const ranges = contactRangesByStatus(settings.status, ctx.now());
  const filter = toDeviceFilter(query, ranges);
  const repo = devicesListRepo(ctx.db, session.user.id, tagScope);
  const sort = query.sort ?? { field: "ident" as const, order: "asc" as const };
  const { page: _page, size: _size, sort: _sort, facets: _facets, ...filterFields } = query;
  // Counts are shared only between viewers of the same tag scope (ADR 041).
  const filterKey = `${countKey}${JSON.stringify(filterFields)}`;
  // The events filter and facet count each user's own unread events (ADR 025): those entries are the
  // user's; a total without the events filter is the same for everyone and stays shared.
  const viewerKey = `${session.user.id}:${filterKey}`;
  const totalKey = filterFields.events === undefined ? `total:${filterKey}` : `total:${viewerKey}`;
  // The total first (shared, so mostly known at once): a page past its middle is read from the end.
  const total = await listCountCache.get(domainId, totalKey, () =>
    repo.countDevicesByFilter(domainId, filter),
  );
  const page = { limit: query.size, offset: query.page * query.size, total };
  // Pages are kept until the domain changes (ADR 046); the total is in the key because a page past
  // the middle is read from the end as the total counts it (pageWalk). The lines' statuses are
  // judged at one moment of the clock's window, at whose turn the cache reads a page again.
  const window = Math.floor(ctx.now().getTime() / LIST_PAGE_TTL_MS);
  const pageKey = `${filterKey}\u0000${sort.field}:${sort.order}:${query.page}:${query.size}:${total}`;
  const lines = isChosenByUnread(sort, filter)
    ? // Chosen by the viewer's own unread counts: the viewer's own page.
      await listPageCache.get(ctx.bus, domainId, `own:${session.user.id}:${pageKey}`, window, () =>
        repo.findDeviceLinesByFilter(domainId, filter, sort, page, ranges),
      )
    : await viewersLines(
        ctx,
        tagScope,
        domainId,
        session.user.id,
        await listPageCache.get(
          ctx.bus,
          domainId,
          `page:${pageKey}`,
          window,
          async (kept?: SharedPage): Promise<SharedPage> => {
            const lines = await repo.findSharedDeviceLinesByFilter(domainId, filter, sort, page, ranges);
            // Read behind a page kept, the new one comes with the read counts of those who asked
            // for that one, so none of them waits for theirs at the clock's turn.
            const next: SharedPage = { lines, readsByViewer: new Map(), askedBy: new Set() };
            for (const viewerId of kept?.askedBy ?? []) {
              next.readsByViewer.set(viewerId, viewerReadCounts(ctx, viewerId, tagScope, domainId, lines));
            }
            await Promise.all(next.readsByViewer.values());
            return next;
          },
        ),
      );
  // The header and the page go out in one write; the facets, when asked, follow when counted.
  yield [{ total, page: query.page, size: query.size }, ...lines.map((line) => new JsonLine(line))];
  if (query.facets) {
    const facets = await listCountCache.get(domainId, `facets:${viewerKey}`, () =>
      countFacets(ctx, session.user.id, tagScope, domainId, filter, ranges),
    );
    yield [{ facets }];
  }
}

/**
 * A page shared between the viewers of a scope (ADR 046) and the read counts of each viewer who
 * asked for it: kept as long as the page, since reading events is a change of the domain too.
 * `askedBy` are those who asked for this very page: a page read behind it reads theirs.
 */
interface SharedPage {
  lines: SharedDeviceLine[];
  readsByViewer: Map<string, Promise<ReadonlyMap<string, number>>>;
  askedBy: Set<string>;
}

/** The lines of a shared page with the viewer's own unread counts put in (ADR 025). */
async function viewersLines(
  ctx: AppContext,
  tagScope: TagScope,
  domainId: string,
  viewerId: string,
  page: SharedPage,
): Promise<string[]> {
  page.askedBy.add(viewerId);
  let reads = page.readsByViewer.get(viewerId);
  if (!reads) {
    reads = viewerReadCounts(ctx, viewerId, tagScope, domainId, page.lines);
    page.readsByViewer.set(viewerId, reads);
    reads.catch(() => page.readsByViewer.delete(viewerId));
  }
  const readCounts = await reads;
  return page.lines.map((line) => {
    const unread = line.events_total === 0 ? 0 : line.events_total - (readCounts.get(line.id) ?? 0);
    return `${line.head}${unread}${line.tail}`;
  });
}

/** The viewer's read counts of the page's routers: one without events is 0 for everyone. */
function viewerReadCounts(
  ctx: AppContext,
  viewerId: string,
  tagScope: TagScope,
  domainId: string,
  lines: readonly SharedDeviceLine[],
): Promise<ReadonlyMap<string, number>> {
  return devicesListRepo(ctx.db, viewerId, tagScope).findViewerReadCounts(
    domainId,
    lines.filter((line) => line.events_total > 0).map((line) => line.id),
  );
}

async function countFacets(
  ctx: AppContext,
  viewerId: string,
  tagScope: TagScope,
  domainId: string,
  filter: DeviceFilter,
  ranges: Record<DeviceStatus, ContactRange>,
): Promise<DeviceFacets> {
  const rows = await devicesListRepo(ctx.db, viewerId, tagScope).countFacetsByFilter(
    domainId,
    filter,
    ranges,
    CSQ_RANGES,
    FACET_TOP_N,
  );
  return {
    status: Object.fromEntries(
      DEVICE_STATUSES.map((s) => [s, rows.contact[s] ?? 0]),
    ) as DeviceFacets["status"],
    signal: Object.fromEntries(SIGNAL_QUALITIES.map((q) => [q, rows.csq[q] ?? 0])) as DeviceFacets["signal"],
    network_mode: rows.network_mode,
    model: rows.model,
    version: rows.version,
    backups: { with: rows.backups, without: rows.total - rows.backups },
    journals: { with: rows.journals, without: rows.total - rows.journals },
    tags: rows.tags,
    events: { with: rows.events, without: rows.total - rows.events },
    file_type: rows.file_type,
  };
}

/** Columns of devices.csv; the bulk import reads ident, description and tags back by name. */
export const DEVICE_CSV_COLUMNS = [
  "ident",
  "description",
  "tags",
  "status",
  "last_contact",
  "model",
  "firmware",
  "serial",
  "network_mode",
  "csq",
  "events",
  "create_time",
] as const;

/** POST /api/devices/export: every device matching the list filters, a keyset page of rows at a time. */
export async function* exportDevicesRows(
  ctx: AppContext,
  session: SessionContext,
  query: DeviceListQuery,
): AsyncGenerator<CsvCell[][]> {
  const { domainId, tagScope } = requireDeviceView(session);
  const settings = await domainSettings(ctx, domainId);
  const now = ctx.now();
  const filter = toDeviceFilter(query, contactRangesByStatus(settings.status, now));
  const repo = devicesListRepo(ctx.db, session.user.id, tagScope);
  let after: string | null = null;
  for (;;) {
    const rows = await repo.findDevicesByFilterAfter(domainId, filter, after, CSV_EXPORT_CHUNK);
    if (rows.length === 0) return;
    const lines: CsvCell[][] = [];
    for (const row of rows) {
      const device = toDeviceDto(row, settings, now.getTime());
      const fields = [
        device.ident,
        device.description,
        device.tags.join(";"),
        device.status,
        device.time === null ? null : new Date(device.time).toISOString(),
        device.board.model,
        device.firmware,
        device.serial,
        device.network_mode,
        device.signal.csq,
        device.events,
        new Date(device.create_time).toISOString(),
      ];
      lines.push(fields);
    }
    yield lines;
    after = rows[rows.length - 1]?.ident ?? null;
    if (rows.length < CSV_EXPORT_CHUNK) return;
  }
}

/**
 * POST /api/tags/: every tag of the domain with how many devices carry it, most frequent first;
 * shared for a moment like the list's totals.
 */
export async function readTagFrequencies(ctx: AppContext, session: SessionContext): Promise<TagFrequency> {
  const { domainId, tagScope, countKey } = requireDeviceView(session);
  const rows = await listCountCache.get(domainId, `${countKey}tags`, () =>
    devicesListRepo(ctx.db, session.user.id, tagScope).countTagsByFilter(domainId, {}, null),
  );
  return Object.fromEntries(rows.map((row) => [row.value, row.count]));
}

/**
 * POST /api/dashboard/: the domain's device totals by status, now. Each count reads every device of
 * the domain, and every open dashboard asks again within a second of each device update while the
 * fleet reports; so the callers of one LIST_COUNT_TTL_MS window of the clock share one count.
 */
export async function readDashboardTotals(
  ctx: AppContext,
  session: SessionContext,
): Promise<DashboardTotals> {
  const { domainId, tagScope, countKey } = requireDeviceView(session);
  const now = ctx.now();
  const window = Math.floor(now.getTime() / LIST_COUNT_TTL_MS);
  return listCountCache.get(domainId, `${countKey}dashboard:${window}`, async () => {
    const settings = await sharedDomainSettings(ctx, domainId);
    const counts = await devicesListRepo(ctx.db, session.user.id, tagScope).countByContactRanges(
      domainId,
      contactRangesByStatus(settings.status, now),
    );
    const totals = { pending: 0, online: 0, warning: 0, critical: 0, total: 0 };
    for (const status of DEVICE_STATUSES) {
      totals[status] = counts[status] ?? 0;
      totals.total += totals[status];
    }
    return totals;
  });
}

/** POST /api/device/{dev_id}: the device and one entry per collect type, freshness judged now. */
export async function readDeviceDetail(
  ctx: AppContext,
  session: SessionContext,
  deviceId: string,
): Promise<DeviceDetail> {
  const domainId = requireDeviceDomain(session);
  const repo = devicesRepo(ctx.db);
  const row = await repo.findDeviceForViewer(domainId, deviceId, session.user.id);
  if (!row) throw new AppError("DEVICE_NOT_FOUND");
  const settings = await domainSettings(ctx, domainId);
  const collects = await repo.findCollects(domainId, deviceId);
  const nowMs = ctx.now().getTime();
  return {
    device: toDeviceDto(row, settings, nowMs),
    collects: COLLECT_TYPES.map((type) => {
      const collect = collects.find((entry) => entry.type === type);
      if (!collect) return { type, create_time: null, data: null, is_fresh: false };
      const createMs = collect.create_time.getTime();
      return {
        type,
        create_time: createMs,
        data: collect.data,
        is_fresh: isCollectFresh(createMs, nowMs, warningMinutes(settings)),
      };
    }),
  };
}
