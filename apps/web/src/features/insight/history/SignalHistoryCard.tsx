import { HISTORY_RANGES, type HistoryRange } from "@cellfleet/contract";
import Card from "@mui/material/Card";
import CircularProgress from "@mui/material/CircularProgress";
import Divider from "@mui/material/Divider";
import Stack from "@mui/material/Stack";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { QueryState } from "../../../components/QueryState";
import { signalHistoryQueryOptions } from "../insight.queries";

// The chart code (uPlot and its options) is a chunk of its own, fetched when a device page shows it.
const SignalCharts = lazy(() => import("./SignalCharts"));

/** The device page's signal history: a range to pick, then the charts (spec section 4 bands). */
export function SignalHistoryCard({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<HistoryRange>("24h");
  const history = useQuery(signalHistoryQueryOptions(deviceId, range));
  const spinner = (
    <Stack sx={{ alignItems: "center", py: 6 }}>
      <CircularProgress aria-label={t("app.loading")} />
    </Stack>
  );
  return (
    <Card variant="outlined" data-testid="signal-history">
      <Stack direction="row" sx={{ alignItems: "center", px: 2, pt: 0.5, gap: 1, flexWrap: "wrap" }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flexGrow: 1 }}>
          {t("insight.signal.title")}
        </Typography>
        <Tabs
          value={range}
          onChange={(_event, next: HistoryRange) => setRange(next)}
          aria-label={t("insight.signal.range")}
          sx={{ minHeight: 40, "& .MuiTab-root": { minHeight: 40, minWidth: 56, px: 1.5 } }}
        >
          {HISTORY_RANGES.map((value) => (
            <Tab
              key={value}
              value={value}
              label={t(`insight.ranges.${value}`)}
              data-testid={`range-${value}`}
            />
          ))}
        </Tabs>
      </Stack>
      <Divider />
      <QueryState
        query={history}
        isInset
        isEmpty={(data) => data.modems.length === 0 && data.timeline.length === 0}
        emptyText={t("insight.signal.empty")}
      >
        {(data) => (
          <Suspense fallback={spinner}>
            <SignalCharts history={data} deviceId={deviceId} />
          </Suspense>
        )}
      </QueryState>
    </Card>
  );
}
