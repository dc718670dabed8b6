import type { Locale, UptimeReportRequest } from "@cellfleet/contract";
import PictureAsPdfIcon from "@mui/icons-material/PictureAsPdf";
import Button from "@mui/material/Button";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiDownload } from "../../app/api/http";

/** Downloads the report on screen as a PDF to send to a customer, in the person's language (ADR 044). */
export function UptimePdfButton({ request }: { request: UptimeReportRequest }) {
  const { t, i18n } = useTranslation();
  const [isDownloading, setDownloading] = useState(false);
  const language: Locale = i18n.language === "en" ? "en" : "ru";
  const subject = request.scope === "tag" && request.tag ? `-${request.tag}` : "";
  async function handleDownload() {
    setDownloading(true);
    try {
      await apiDownload("POST /api/uptime/pdf", `uptime-${request.month}${subject}.pdf`, {
        body: { ...request, language },
      });
    } catch {
      // The transport has shown the error.
    } finally {
      setDownloading(false);
    }
  }
  return (
    <Button
      variant="outlined"
      startIcon={<PictureAsPdfIcon />}
      disabled={isDownloading}
      onClick={() => void handleDownload()}
      sx={{ ml: { sm: "auto" }, alignSelf: { xs: "flex-start", sm: "center" } }}
      data-testid="uptime-pdf"
    >
      {t("uptime.pdf")}
    </Button>
  );
}
