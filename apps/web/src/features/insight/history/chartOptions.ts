import { SIGNAL_BANDS, type SignalHistory, type SignalMetric, type TimelineState } from "@cellfleet/contract";
import type uPlot from "uplot";
import type { Options } from "uplot";
import { changeLabel } from "./chartData";
import type { ChartPalette } from "./chartPalette";

/** Width of the y axis, the same on every chart so their time axes line up. */
const Y_AXIS_PX = 56;
const QUALITIES = ["cellEdge", "midCell", "normal", "excellent"] as const;

/** Formats a moment of the x axis (seconds) for the range shown, in the interface language. */
export function timeFormatter(language: string, rangeMs: number): (seconds: number) => string {
  const format = new Intl.DateTimeFormat(
    language,
    rangeMs <= 86_400_000
      ? { hour: "2-digit", minute: "2-digit" }
      : rangeMs <= 7 * 86_400_000
        ? { weekday: "short", day: "numeric", hour: "2-digit" }
        : { day: "numeric", month: "short" },
  );
  return (seconds) => format.format(seconds * 1000);
}

function fillX(u: uPlot, from: number, to: number, style: string): void {
  const left = Math.max(u.valToPos(from / 1000, "x", true), u.bbox.left);
  const right = Math.min(u.valToPos(to / 1000, "x", true), u.bbox.left + u.bbox.width);
  if (right <= left) return;
  u.ctx.fillStyle = style;
  u.ctx.fillRect(left, u.bbox.top, right - left, u.bbox.height);
}

/** Outages as shaded stretches behind the lines. */
function drawOutages(u: uPlot, history: SignalHistory, palette: ChartPalette): void {
  for (const outage of history.outages) fillX(u, outage.from, outage.to, palette.outage);
}

/** The quality bands of spec section 4 behind a metric's lines. */
function drawBands(u: uPlot, metric: SignalMetric, palette: ChartPalette): void {
  const bands = SIGNAL_BANDS[metric];
  const edges = [
    Number.NEGATIVE_INFINITY,
    bands.midCell,
    bands.normal,
    bands.excellent,
    Number.POSITIVE_INFINITY,
  ];
  const top = u.bbox.top;
  const bottom = u.bbox.top + u.bbox.height;
  QUALITIES.forEach((quality, i) => {
    const low = edges[i] as number;
    const high = edges[i + 1] as number;
    const y1 = Number.isFinite(high) ? Math.max(u.valToPos(high, "y", true), top) : top;
    const y2 = Number.isFinite(low) ? Math.min(u.valToPos(low, "y", true), bottom) : bottom;
    if (y2 <= y1) return;
    u.ctx.fillStyle = palette.band[quality];
    u.ctx.fillRect(u.bbox.left, y1, u.bbox.width, y2 - y1);
  });
}

/** Dashed vertical lines at modem changes and reboots; labelled on the first chart of a modem. */
function drawMarkers(
  u: uPlot,
  history: SignalHistory,
  modem: string,
  palette: ChartPalette,
  labels: { reboot: string } | null,
): void {
  const ctx = u.ctx;
  const right = u.bbox.left + u.bbox.width;
  const marks = [
    ...history.changes
      .filter((change) => change.modem === modem)
      .map((change) => ({
        time: change.time,
        color: palette.change,
        label: changeLabel(change)?.text ?? null,
        row: 0,
      })),
    ...history.reboots.map((time) => ({
      time,
      color: palette.reboot,
      label: labels?.reboot ?? null,
      row: 1,
    })),
  ]
    .map((mark) => ({ ...mark, x: u.valToPos(mark.time / 1000, "x", true) }))
    .filter((mark) => mark.x >= u.bbox.left && mark.x <= right)
    .sort((a, b) => a.x - b.x);
  ctx.save();
  ctx.lineWidth = Math.max(1, devicePixelRatio);
  ctx.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
  for (const mark of marks) {
    ctx.strokeStyle = mark.color;
    ctx.beginPath();
    ctx.moveTo(mark.x, u.bbox.top);
    ctx.lineTo(mark.x, u.bbox.top + u.bbox.height);
    ctx.stroke();
  }
  if (labels) {
    // Left to right, each label after its line (before it at the right edge); one that would
    // overlap the label before it in its row is left out: the list under the charts names them all.
    ctx.font = `${11 * devicePixelRatio}px Roboto, Arial, sans-serif`;
    const rowEnds = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
    for (const mark of marks) {
      if (!mark.label) continue;
      const width = ctx.measureText(mark.label).width;
      const after = mark.x + 3 * devicePixelRatio;
      const left = after + width <= right ? after : mark.x - 3 * devicePixelRatio - width;
      if (left <= (rowEnds[mark.row] ?? 0) + 6 * devicePixelRatio) continue;
      ctx.fillStyle = mark.color;
      ctx.fillText(mark.label, left, u.bbox.top + (12 + 12 * mark.row) * devicePixelRatio);
      rowEnds[mark.row] = left + width;
    }
  }
  ctx.restore();
}

/** The shared parts: the time scale over the whole range, the axes' colours, the synced cursor. */
function baseOptions(
  history: SignalHistory,
  palette: ChartPalette,
  formatTime: (seconds: number) => string,
  syncKey: string,
): Pick<Options, "scales" | "axes" | "cursor" | "legend"> {
  return {
    scales: { x: { time: true, range: () => [history.from / 1000, history.to / 1000] } },
    axes: [
      {
        stroke: palette.text,
        grid: { stroke: palette.grid, width: 1 },
        ticks: { stroke: palette.grid, width: 1 },
        values: (_u, splits) => splits.map((split) => formatTime(split)),
        // Room for the longest label of the range ("Wed 18, 12 AM"), so ticks never overlap.
        space: history.to - history.from > 86_400_000 ? 120 : 70,
      },
      {
        stroke: palette.text,
        grid: { stroke: palette.grid, width: 1 },
        ticks: { stroke: palette.grid, width: 1 },
        size: Y_AXIS_PX,
      },
    ],
    cursor: { sync: { key: syncKey }, drag: { x: false, y: false } },
    legend: { show: false },
  };
}

/** Options of one metric's chart: mean line, min-max range, bands, outages and markers. */
export function metricChartOptions(input: {
  history: SignalHistory;
  modem: string;
  metric: SignalMetric;
  palette: ChartPalette;
  formatTime: (seconds: number) => string;
  syncKey: string;
  height: number;
  /** Marker labels, on the first chart of a modem only (null on the others). */
  labels: { reboot: string } | null;
  names: { mean: string; min: string; max: string };
  onDrawn?: () => void;
}): Omit<Options, "width"> {
  const { history, metric, palette } = input;
  const base = baseOptions(history, palette, input.formatTime, input.syncKey);
  const range = { stroke: "transparent", width: 0, points: { show: false } };
  return {
    ...base,
    height: input.height,
    series: [
      {},
      { label: input.names.min, ...range },
      { label: input.names.max, ...range },
      { label: input.names.mean, stroke: palette.line, width: 1.5, points: { show: false }, spanGaps: false },
    ],
    bands: [{ series: [2, 1], fill: palette.range }],
    scales: {
      ...base.scales,
      y: {
        range: (_u, min, max) => {
          const bands = SIGNAL_BANDS[metric];
          if (min === null || max === null) return [bands.midCell - 10, bands.excellent + 10];
          const pad = Math.max(2, (max - min) * 0.15);
          return [Math.floor(min - pad), Math.ceil(max + pad)];
        },
      },
    },
    hooks: {
      drawClear: [
        (u) => {
          drawBands(u, metric, palette);
          drawOutages(u, history, palette);
        },
      ],
      draw: [
        (u) => {
          drawMarkers(u, history, input.modem, palette, input.labels);
          input.onDrawn?.();
        },
      ],
    },
  };
}

/** Options of the status timeline: a strip of coloured stretches on the same time axis. */
export function timelineChartOptions(input: {
  history: SignalHistory;
  palette: ChartPalette;
  formatTime: (seconds: number) => string;
  syncKey: string;
  onDrawn?: () => void;
}): Omit<Options, "width"> {
  const { history, palette } = input;
  let isFirstDraw = true;
  const base = baseOptions(history, palette, input.formatTime, input.syncKey);
  return {
    ...base,
    height: 64,
    series: [{}, { show: false }],
    scales: { ...base.scales, y: { range: [0, 1] } },
    axes: [
      base.axes?.[0] ?? {},
      { ...(base.axes?.[1] ?? {}), values: () => [], grid: { show: false }, ticks: { show: false } },
    ],
    hooks: {
      drawClear: [
        (u) => {
          for (const segment of history.timeline) {
            fillX(u, segment.from, segment.to, palette.timeline[segment.status as TimelineState]);
          }
        },
      ],
      draw: [
        () => {
          if (isFirstDraw) input.onDrawn?.();
          isFirstDraw = false;
        },
      ],
    },
  };
}
