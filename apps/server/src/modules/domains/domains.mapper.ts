import type { DomainDetail, DomainListItem } from "@cellfleet/contract";
import type { DomainWithCounts } from "./domain-list.repo";

/** A domain row with its counts as a row of the domains list; a device limit of 0 means none. */
export function toDomainListItem(row: DomainWithCounts): DomainListItem {
  return {
    _id: row.id,
    name: row.name,
    full_name: row.full_name,
    tin: row.tin ?? "",
    email: row.email,
    phone: row.phone,
    manager: row.manager,
    policy_id: row.policy_id,
    device_limit: row.device_limit > 0 ? row.device_limit : null,
    create_time: row.create_time.getTime(),
    last_session: row.last_session === null ? null : row.last_session.getTime(),
    devices: { online: row.online, warning: row.warning, critical: row.critical },
  };
}

/** A domain as its page shows it. */
export function toDomainDetail(
  row: DomainWithCounts,
  policy: DomainDetail["policy"],
  admins: DomainDetail["admins"],
): DomainDetail {
  return { ...toDomainListItem(row), policy, admins };
}
