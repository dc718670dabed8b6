import type { LastRefusal } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { formatMoment } from "../../../app/format";

/**
 * The gateway's last refusal of this ident: "wrong key at 12:03 from 203.0.113.5". A warning while
 * it is newer than the router's last contact; a quiet note once the router got in after it.
 */
export function RefusalNotice({
  refusal,
  isSinceContact,
}: {
  refusal: LastRefusal;
  isSinceContact: boolean;
}) {
  const { t, i18n } = useTranslation();
  const text = t(`insight.refusal.${refusal.reason}`, {
    time: formatMoment(refusal.time, i18n.language),
    address: refusal.address ?? t("insight.refusal.unknownAddress"),
  });
  const attempts = refusal.count > 1 ? ` ${t("insight.refusal.attempts", { count: refusal.count })}` : "";
  if (!isSinceContact) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="last-refusal">
        {t("insight.refusal.before")} {text}
      </Typography>
    );
  }
  return (
    <Alert severity="warning" data-testid="last-refusal">
      {text}
      {attempts}. {t(`insight.refusal.fix.${refusal.reason}`)}
    </Alert>
  );
}
