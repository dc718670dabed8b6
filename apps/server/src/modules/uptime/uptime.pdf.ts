import { createRequire } from "node:module";
import type { UptimeFigures, UptimeReport } from "@cellfleet/contract";
import { DateTime } from "luxon";
import PDFDocument from "pdfkit";
import { type ReportLanguage, type ReportTexts, reportTexts } from "./uptime.pdf-texts";

// The uptime report as a PDF an MSP sends to its customer (issue 31, ADR 044): drawn with pdfkit
// in DejaVu Sans (shipped by the dejavu-fonts-ttf package, so Cyrillic needs nothing installed),
// A4 landscape, a line per router and one for them together.

const require = createRequire(import.meta.url);
const FONT = require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf");
const FONT_BOLD = require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf");

const MARGIN = 36;
const CELL_PAD = 4;
const FONT_SIZE = 8.5;
/** Column widths (points) of A4 landscape less the margins: 770. */
const WIDTHS = [135, 60, 50, 65, 70, 70, 70, 190, 60] as const;
/** Keeps a number and its unit on one line. */
const NBSP = "\u00a0";

/** What the report is of, in words: the whole domain, a tag or a router. */
export function scopeWords(report: UptimeReport, texts: ReportTexts): string {
  if (report.scope === "tag") return `${texts.scope.tag}: ${report.tag ?? ""}`;
  if (report.scope === "device") return `${texts.scope.device}: ${report.routers[0]?.ident ?? ""}`;
  return texts.scope.domain;
}

/** The month in words, "October 2026" or "октябрь 2026". */
export function monthWords(month: string, language: ReportLanguage): string {
  return DateTime.fromISO(`${month}-01`).setLocale(language).toFormat("LLLL yyyy");
}

function duration(ms: number, texts: ReportTexts): string {
  const totalMinutes = Math.round(ms / 60_000);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  return hours > 0
    ? `${hours}${NBSP}${texts.hours} ${minutes}${NBSP}${texts.minutes}`
    : `${minutes}${NBSP}${texts.minutes}`;
}

function bytes(value: number, texts: ReportTexts, language: ReportLanguage): string {
  let unit = 0;
  let scaled = value;
  while (scaled >= 1024 && unit < texts.units.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(
    scaled,
  );
  return `${number}${NBSP}${texts.units[unit]}`;
}

function percent(value: number | null, texts: ReportTexts, language: ReportLanguage): string {
  if (value === null) return texts.pending;
  return `${new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value)}${NBSP}%`;
}

/** One line's cells, in the columns' order. */
function cells(name: string, f: UptimeFigures, texts: ReportTexts, language: ReportLanguage): string[] {
  const csq = f.signal.csq === null ? "" : ` (CSQ ${Math.round(f.signal.csq)})`;
  return [
    name,
    percent(f.connected_percent, texts, language),
    String(f.outages.count),
    duration(f.outages.longest_ms, texts),
    duration(f.outages.total_ms, texts),
    duration(f.backup_sim_ms, texts),
    `${texts.signal[f.signal.quality]}${csq}`,
    f.sims
      .map((sim) => `${sim.iccid}: ${bytes(sim.rx, texts, language)} / ${bytes(sim.tx, texts, language)}`)
      .join("\n"),
    String(f.firmware_changes),
  ];
}

/** Renders the report as a PDF in the language given; `domainName` heads it. */
export async function renderUptimePdf(
  report: UptimeReport,
  options: { language: ReportLanguage; domainName: string; madeAt: Date },
): Promise<Buffer> {
  const { language } = options;
  const texts = reportTexts(language);
  const doc = new PDFDocument({
    size: "A4",
    layout: "landscape",
    margin: MARGIN,
    info: { Title: `${texts.title} ${report.month}`, Author: options.domainName },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.registerFont("body", FONT);
  doc.registerFont("bold", FONT_BOLD);

  doc
    .font("bold")
    .fontSize(18)
    .text(`${texts.title}: ${monthWords(report.month, language)}`);
  doc.moveDown(0.3);
  doc
    .font("body")
    .fontSize(10)
    .text(options.domainName)
    .text(
      `${scopeWords(report, texts)} · ${texts.month}: ${report.month} · ${texts.timeZone}: ${report.time_zone}`,
    )
    .text(
      `${texts.made}: ${DateTime.fromJSDate(options.madeAt, { zone: report.time_zone }).setLocale(language).toFormat("d MMMM yyyy HH:mm")}`,
    );
  doc.moveDown(1);

  const bottom = doc.page.height - MARGIN;
  let y = doc.y;
  const drawRow = (values: readonly string[], font: "body" | "bold", shade: string | null) => {
    doc.font(font).fontSize(FONT_SIZE);
    const height =
      Math.max(
        ...values.map((value, i) => doc.heightOfString(value, { width: (WIDTHS[i] ?? 0) - 2 * CELL_PAD })),
      ) +
      2 * CELL_PAD;
    if (y + height > bottom) {
      doc.addPage();
      y = MARGIN;
    }
    if (shade)
      doc
        .rect(
          MARGIN,
          y,
          WIDTHS.reduce((a, b) => a + b, 0),
          height,
        )
        .fill(shade);
    let x = MARGIN;
    values.forEach((value, i) => {
      const width = WIDTHS[i] ?? 0;
      doc.fillColor("#111111").text(value, x + CELL_PAD, y + CELL_PAD, { width: width - 2 * CELL_PAD });
      x += width;
    });
    y += height;
    doc.moveTo(MARGIN, y).lineTo(x, y).lineWidth(0.5).strokeColor("#c8ccd2").stroke();
  };
  const header = Object.values(texts.columns);
  drawRow(header, "bold", "#e8ecf1");
  for (const router of report.routers)
    drawRow(cells(router.ident, router.figures, texts, language), "body", null);
  drawRow(cells(texts.total(report.totals.routers), report.totals, texts, language), "bold", "#f3f5f8");

  doc.font("body").fontSize(8).fillColor("#555555");
  if (y + 30 > bottom) {
    doc.addPage();
    y = MARGIN;
  }
  doc.text(texts.note, MARGIN, y + 10, { width: WIDTHS.reduce((a, b) => a + b, 0) });
  doc.end();
  return done;
}
