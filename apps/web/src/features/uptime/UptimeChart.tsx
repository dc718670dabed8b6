import type { UptimeReport } from "@cellfleet/contract";
import { useTheme } from "@mui/material/styles";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import uPlot, { type AlignedData, type Options } from "uplot";
import { chartPalette } from "../insight/history/chartPalette";
import { UPlotChart } from "../insight/history/UPlotChart";

/** Connected time per day of the month as bars, 0–100 %, with the same uPlot canvas as the signal charts. */
export function UptimeChart({ report }: { report: UptimeReport }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const palette = chartPalette(theme);
  const data = useMemo<AlignedData>(
    () => [report.days.map((day) => day.from / 1000), report.days.map((day) => day.connected_percent)],
    [report],
  );
  const options = useMemo<Omit<Options, "width">>(() => {
    // The day of the month only: the page names the month, and a phone has room for little more.
    const dayFormat = new Intl.DateTimeFormat(i18n.language, { day: "numeric", timeZone: report.time_zone });
    const axis = { stroke: palette.text, grid: { stroke: palette.grid, width: 1 }, ticks: { show: false } };
    return {
      height: 200,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false }, y: { range: [0, 100] } },
      axes: [
        { ...axis, values: (_u, splits) => splits.map((s) => dayFormat.format(s * 1000)) },
        { ...axis, size: 48, values: (_u, splits) => splits.map((s) => `${s} %`) },
      ],
      series: [
        {},
        {
          label: t("uptime.connected"),
          stroke: palette.line,
          fill: palette.range,
          width: 1,
          paths: uPlot.paths.bars?.({ size: [0.8, 40] }),
        },
      ],
    };
  }, [i18n.language, palette.grid, palette.line, palette.range, palette.text, report.time_zone, t]);
  return <UPlotChart options={options} data={data} testId="uptime-chart" />;
}
