import type { SignalQuality, TimelineState } from "@cellfleet/contract";
import { alpha, type Theme } from "@mui/material/styles";

/** The colours the charts draw with, taken from the MUI theme so light and dark both read well. */
export interface ChartPalette {
  text: string;
  grid: string;
  line: string;
  range: string;
  band: Record<Exclude<SignalQuality, "unknown">, string>;
  outage: string;
  change: string;
  reboot: string;
  timeline: Record<TimelineState, string>;
}

export function chartPalette(theme: Theme): ChartPalette {
  const { palette } = theme;
  const isDark = palette.mode === "dark";
  return {
    text: palette.text.secondary,
    grid: palette.divider,
    line: palette.primary.main,
    range: alpha(palette.primary.main, isDark ? 0.28 : 0.18),
    band: {
      cellEdge: alpha(palette.error.main, isDark ? 0.16 : 0.1),
      midCell: alpha(palette.warning.main, isDark ? 0.14 : 0.1),
      normal: alpha(palette.info.main, isDark ? 0.1 : 0.06),
      excellent: alpha(palette.success.main, isDark ? 0.14 : 0.09),
    },
    outage: alpha(palette.text.primary, isDark ? 0.22 : 0.14),
    change: palette.secondary.main,
    reboot: isDark ? "#ce93d8" : "#8e24aa",
    timeline: {
      online: palette.success.main,
      offline: palette.grey[500],
      warning: palette.warning.main,
      critical: palette.error.main,
    },
  };
}
