import type { StyleSpecification } from "maplibre-gl";

/** How long the style JSON may take before the map settles for its plain background. */
const STYLE_TIMEOUT_MS = 4000;

/**
 * A style with one background layer and no sources: what the map draws when no tile server is set
 * or reachable. No glyphs either, so nothing on the map depends on text layers (counts are markers).
 */
export function plainStyle(isDark: boolean): StyleSpecification {
  return {
    version: 8,
    sources: {},
    layers: [
      { id: "background", type: "background", paint: { "background-color": isDark ? "#1b2430" : "#e8eef2" } },
    ],
  };
}

/**
 * The tiles' style JSON when `url` is set and answers a style in time, else the plain one. Fetched
 * here rather than by MapLibre so an unreachable server costs one timeout, not a broken map.
 */
export async function resolveStyle(
  url: string | null,
  isDark: boolean,
): Promise<StyleSpecification | string> {
  if (!url) return plainStyle(isDark);
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(STYLE_TIMEOUT_MS) });
    if (!response.ok) return plainStyle(isDark);
    const style = (await response.json()) as { version?: unknown; layers?: unknown };
    return style.version === 8 && Array.isArray(style.layers) ? url : plainStyle(isDark);
  } catch {
    return plainStyle(isDark);
  }
}

/** A viewport as the clusters endpoint takes it: [west, south, east, north] within the globe. */
export function toBbox(bounds: {
  getWest(): number;
  getSouth(): number;
  getEast(): number;
  getNorth(): number;
}) {
  const clampLat = (value: number) => Math.max(-90, Math.min(90, value));
  const west = bounds.getWest();
  const east = bounds.getEast();
  if (east - west >= 360)
    return [-180, clampLat(bounds.getSouth()), 180, clampLat(bounds.getNorth())] as const;
  // A map panned past the antimeridian reports longitudes beyond ±180; west > east then crosses it.
  const wrap = (value: number) =>
    Math.abs(value) <= 180 ? value : ((((value + 180) % 360) + 360) % 360) - 180;
  return [wrap(west), clampLat(bounds.getSouth()), wrap(east), clampLat(bounds.getNorth())] as const;
}
