import { fileSizeParts } from "@cellfleet/contract";

/** A byte count as '1.5 MB' (units of 1024, spec section 9). */
export function formatBytes(bytes: number): string {
  const { value, unit } = fileSizeParts(bytes);
  return `${value} ${unit}`;
}

/** A duration in seconds as '3d 4h 5m' (or '45s' under a minute). */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  if (seconds < 60) return `${seconds}s`;
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return [days ? `${days}d` : "", hours ? `${hours}h` : "", `${minutes}m`].filter(Boolean).join(" ");
}

/** A value that may be missing, as text; missing shows a dash. */
export function orDash(value: string | number | null | undefined): string {
  return value === null || value === undefined || value === "" ? "—" : String(value);
}
