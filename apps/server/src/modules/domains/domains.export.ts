import { CSV_EXPORT_CHUNK, type DomainListRequest } from "@cellfleet/contract";
import type { AppContext } from "../../platform/context";
import type { CsvCell } from "../../platform/http/csv";
import { keysetPages } from "../../platform/http/csv-export";
import { domainListRepo } from "./domain-list.repo";
import { toDomainListItem } from "./domains.mapper";

/** Columns of domains.csv: the list's columns (spec section 2, domains list) and the contacts. */
export const DOMAIN_CSV_COLUMNS = [
  "name",
  "full_name",
  "tin",
  "email",
  "phone",
  "manager",
  "last_session",
  "online",
  "warning",
  "critical",
  "device_limit",
  "create_time",
] as const;

/** POST /api/domains/export: the domains the list shows for the same search, by name (superusers). */
export async function* exportDomainsRows(
  ctx: AppContext,
  request: Pick<DomainListRequest, "search">,
): AsyncGenerator<CsvCell[][]> {
  const repo = domainListRepo(ctx.db);
  const now = ctx.now();
  const pages = keysetPages(
    (after: string | null, limit) => repo.listDomainsAfterAcrossDomains(request.search, after, limit, now),
    (row) => row.name,
    CSV_EXPORT_CHUNK,
  );
  for await (const rows of pages) {
    yield rows
      .map(toDomainListItem)
      .map((domain) => [
        domain.name,
        domain.full_name,
        domain.tin,
        domain.email,
        domain.phone,
        domain.manager,
        domain.last_session === null ? null : new Date(domain.last_session).toISOString(),
        domain.devices.online,
        domain.devices.warning,
        domain.devices.critical,
        domain.device_limit,
        new Date(domain.create_time).toISOString(),
      ]);
  }
}
