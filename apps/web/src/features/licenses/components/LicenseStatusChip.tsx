import { type License, type LicenseStatusLabelKey, licenseStatusLabelKey } from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import Tooltip from "@mui/material/Tooltip";
import { useTranslation } from "react-i18next";

type ChipColor = "default" | "info" | "success" | "warning" | "error";

const COLORS: Record<LicenseStatusLabelKey, ChipColor> = {
  pending: "default",
  activated: "info",
  ready: "success",
  serverError: "warning",
  banned: "error",
  expired: "error",
  error: "error",
};

/** A licence's status of spec §4 as a chip; its message (and the last refresh's failure) on hover. */
export function LicenseStatusChip({ license }: { license: License }) {
  const { t } = useTranslation();
  const key = licenseStatusLabelKey(license.status);
  const message = license.error ? t(`licenses.errors.${license.error}`) : t(`licenses.statusHelp.${key}`);
  return (
    <Tooltip title={message}>
      <Chip
        size="small"
        color={COLORS[key]}
        variant={key === "pending" ? "outlined" : "filled"}
        label={t(`licenses.status.${key}`)}
        data-testid="license-status"
        data-status={license.status}
      />
    </Tooltip>
  );
}
