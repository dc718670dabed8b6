import type { TagScope } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import type { DB } from "../../platform/db/schema";
import type { DeviceFilter } from "../devices/device-filter";
import { devicesWithViewerReads } from "../devices/device-unread";
import { filterCondition } from "../devices/devices-list.where";

/** A router as the map clusters it: null coordinates when it has no position. */
export interface MapRow {
  id: string;
  ident: string;
  latitude: number | null;
  longitude: number | null;
  /** Last contact, ms since the epoch; null when it never reported. */
  last_contact_ms: number | null;
}

/** The fleet map's one query (ADR 045). */
export function mapRepo(db: Kysely<DB>, viewerId: string, tagScope: TagScope) {
  return {
    /**
     * Every router of the domain matching the device list's filter and the viewer's tag scope, the
     * unplaced ones included (the map counts them). Epoch milliseconds come as a double so the
     * driver parses no dates: at 100,000 routers that parsing was most of the query's time.
     */
    async findMapRowsByFilter(domainId: string, filter: DeviceFilter): Promise<MapRow[]> {
      return devicesWithViewerReads(db, viewerId)
        .where((eb) => filterCondition(eb, domainId, tagScope, filter))
        .select([
          "devices.id",
          "devices.ident",
          "devices.latitude",
          "devices.longitude",
          sql<number | null>`(extract(epoch from devices.last_contact) * 1000)::float8`.as("last_contact_ms"),
        ])
        .execute();
    },
  };
}
