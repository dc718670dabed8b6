import type { TagScope, UptimeReportRequest } from "@cellfleet/contract";
import type { AppContext } from "../../platform/context";
import { renderUptimePdf } from "./uptime.pdf";
import type { ReportLanguage } from "./uptime.pdf-texts";
import { uptimeRepo } from "./uptime.repo";
import { computeUptimeReport } from "./uptime.service";

/** A rendered PDF report with the name it is downloaded or attached under. */
export interface UptimeDocument {
  filename: string;
  content: Buffer;
  report: Awaited<ReturnType<typeof computeUptimeReport>>;
}

/**
 * The domain's report of the request as a PDF in the language given (the download and the monthly
 * mail), over the routers within `tagScope` (the downloading caller's, ADR 041).
 */
export async function renderUptimeDocument(
  ctx: AppContext,
  domainId: string,
  request: UptimeReportRequest,
  language: ReportLanguage,
  tagScope: TagScope = [],
): Promise<UptimeDocument> {
  const report = await computeUptimeReport(ctx, domainId, request, tagScope);
  const content = await renderUptimePdf(report, {
    language,
    domainName: await uptimeRepo(ctx.db).findDomainName(domainId),
    madeAt: ctx.now(),
  });
  const subject =
    report.scope === "tag"
      ? `-${report.tag}`
      : report.scope === "device"
        ? `-${report.routers[0]?.ident}`
        : "";
  return { filename: `uptime-${report.month}${subject}.pdf`, content, report };
}
