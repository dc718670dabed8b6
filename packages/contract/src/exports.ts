import type { PermissionAction } from "./permissions";

// Spec section 7 names `EXPORT /api/{section}` (answer saved as {section}.csv). Node's HTTP parser
// refuses methods it does not know before any server code runs, so every export is the POST
// equivalent `POST /api/{path}/export` with the list's own request body (docs/adr/024-csv-export.md).
// A list plugs its export in with one row here, one `registerCsvExport` on the server, and
// `useCsvExport(section, body)` on its list card.

/** One list's CSV export: where it answers, the file it is saved as, and the list's permission. */
export interface CsvExportEntry {
  /** The list's path under /api, without the trailing `/export`. */
  readonly path: string;
  /** The name the browser saves the answer under. */
  readonly filename: string;
  /** The same action the list itself needs: whoever sees the list may download it, nobody else. */
  readonly permission: PermissionAction;
}

/** Every list with a download button (spec section 2), keyed by section. */
export const CSV_EXPORTS = {
  devices: { path: "/api/devices", filename: "devices.csv", permission: "devices.view" },
  events: { path: "/api/events", filename: "events.csv", permission: "events.view" },
  commands: { path: "/api/commands", filename: "commands.csv", permission: "commands.view" },
  files: { path: "/api/files", filename: "files.csv", permission: "files.view" },
  users: { path: "/api/users", filename: "users.csv", permission: "users.view" },
  domains: { path: "/api/domains", filename: "domains.csv", permission: "domains.view" },
  rules: { path: "/api/notifications/rules", filename: "rules.csv", permission: "notifications.list" },
  logs: { path: "/api/web_actions", filename: "web_actions.csv", permission: "logs.view" },
  licenses: { path: "/api/licenses", filename: "licenses.csv", permission: "licenses.view" },
  firmwares: { path: "/api/firmwares", filename: "firmwares.csv", permission: "software.view" },
  uptime: { path: "/api/uptime", filename: "uptime.csv", permission: "uptime.view" },
} as const satisfies Record<string, CsvExportEntry>;

/** A section that has a CSV export. */
export type CsvExportSection = keyof typeof CSV_EXPORTS;

/** The POST path that answers a section's CSV (the spec's `EXPORT /api/{section}`). */
export function csvExportPath(section: CsvExportSection): string {
  return `${CSV_EXPORTS[section].path}/export`;
}

/** Rows a CSV export reads from the database per round trip; at most this many are held at once. */
export const CSV_EXPORT_CHUNK = 1000;
