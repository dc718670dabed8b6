import { i18n } from "../app/i18n";

/** A moment (ms since the epoch) as a short local date and time in the interface language; '—' for none. */
export function formatDateTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return new Intl.DateTimeFormat(i18n.language, { dateStyle: "short", timeStyle: "short" }).format(ms);
}
