import { HISTORY_RANGE_MS, SIGNAL_METRICS, SIGNAL_UNITS, type SignalHistory } from "@cellfleet/contract";
import Box from "@mui/material/Box";
import Stack from "@mui/material/Stack";
import { useTheme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { AlignedData } from "uplot";
import { ChangesList, ChartsLegend } from "./ChartsLegend";
import { hasValues, metricColumns } from "./chartData";
import { metricChartOptions, timeFormatter, timelineChartOptions } from "./chartOptions";
import { chartPalette } from "./chartPalette";
import { UPlotChart } from "./UPlotChart";

/** The performance measure the benchmark reads: from the answer's arrival to the last chart drawn. */
export const CHARTS_MEASURE = "cellfleet:signal-charts";

const METRIC_NAMES = { rsrp: "RSRP", rsrq: "RSRQ", sinr: "SINR", rssi: "RSSI", csq: "CSQ" } as const;

/**
 * The signal charts of a device (loaded on demand: uPlot weighs nothing on pages without them): the
 * status timeline, then per modem a chart per metric with its quality bands, min-max range and mean,
 * outages shaded and changes and reboots marked, every chart on one time axis with a shared cursor.
 */
export default function SignalCharts({ history, deviceId }: { history: SignalHistory; deviceId: string }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const palette = useMemo(() => chartPalette(theme), [theme]);
  const formatTime = useMemo(
    () => timeFormatter(i18n.language, HISTORY_RANGE_MS[history.range]),
    [i18n.language, history.range],
  );
  const syncKey = `signal-${deviceId}`;

  const charts = useMemo(() => {
    const startMark = `${CHARTS_MEASURE}:start:${history.to}`;
    performance.mark(startMark);
    // The timeline counts too: with no modem in range it is the only chart.
    let pending = 1;
    const onDrawn = () => {
      pending -= 1;
      if (pending === 0) performance.measure(CHARTS_MEASURE, startMark);
    };
    const names = {
      mean: t("insight.signal.mean"),
      min: t("insight.signal.min"),
      max: t("insight.signal.max"),
    };
    const modems = history.modems.map((series) => ({
      modem: series.modem,
      metrics: SIGNAL_METRICS.filter((metric) => hasValues(series, metric)).map((metric, index) => {
        pending += 1;
        let isFirstDraw = true;
        return {
          metric,
          data: metricColumns(series, metric, history.bucket_ms, history.outages) as AlignedData,
          options: metricChartOptions({
            history,
            modem: series.modem,
            metric,
            palette,
            formatTime,
            syncKey,
            height: 150,
            labels: index === 0 ? { reboot: t("insight.signal.reboot") } : null,
            names,
            onDrawn: () => {
              if (isFirstDraw) onDrawn();
              isFirstDraw = false;
            },
          }),
        };
      }),
    }));
    const timeline = {
      data: [
        [history.from / 1000, history.to / 1000],
        [null, null],
      ] as AlignedData,
      options: timelineChartOptions({ history, palette, formatTime, syncKey, onDrawn }),
    };
    return { modems, timeline };
  }, [history, palette, formatTime, syncKey, t]);

  return (
    <Stack spacing={2} sx={{ p: 2 }} data-testid="signal-charts">
      <ChartsLegend palette={palette} />
      <Box>
        <Typography variant="subtitle2">{t("insight.signal.timeline")}</Typography>
        <UPlotChart options={charts.timeline.options} data={charts.timeline.data} testId="status-timeline" />
      </Box>
      {charts.modems.length === 0 ? (
        <Typography color="text.secondary" data-testid="signal-none">
          {t("insight.signal.none")}
        </Typography>
      ) : null}
      {charts.modems.map(({ modem, metrics }) => (
        <Box key={modem} data-testid="modem-charts" data-modem={modem}>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
            {t("insight.signal.modem", { modem })}
          </Typography>
          <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", lg: "1fr 1fr" }, gap: 2 }}>
            {metrics.map(({ metric, data, options }) => (
              <Box key={metric} sx={{ minWidth: 0 }}>
                <Typography variant="caption" color="text.secondary">
                  {METRIC_NAMES[metric]}
                  {SIGNAL_UNITS[metric] ? `, ${SIGNAL_UNITS[metric]}` : ""}
                </Typography>
                <UPlotChart options={options} data={data} testId={`chart-${metric}`} />
              </Box>
            ))}
          </Box>
        </Box>
      ))}
      <ChangesList history={history} />
    </Stack>
  );
}
