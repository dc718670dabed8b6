import type { LicenseUsage as Usage } from "@cellfleet/contract";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useFormatNumber } from "../../../app/format";

/** The installation's routers against the licensed count (or the unlicensed installation's rule). */
export function LicenseUsage({ usage }: { usage: Usage }) {
  const { t } = useTranslation();
  const formatNumber = useFormatNumber();
  if (usage.limit === null) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="license-usage">
        {t("licenses.usageUnlimited", { used: formatNumber(usage.used) })}
      </Typography>
    );
  }
  const share = usage.limit === 0 ? 100 : Math.min(100, (usage.used / usage.limit) * 100);
  const isFull = usage.used >= usage.limit;
  return (
    <Stack spacing={0.5} sx={{ maxWidth: 420 }} data-testid="license-usage">
      <Typography variant="body2" color={isFull ? "error" : "text.secondary"}>
        {t(usage.licensed ? "licenses.usage" : "licenses.usageUnlicensed", {
          used: formatNumber(usage.used),
          limit: formatNumber(usage.limit),
        })}
      </Typography>
      <LinearProgress variant="determinate" value={share} color={isFull ? "error" : "primary"} />
    </Stack>
  );
}
