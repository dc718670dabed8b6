import { firmwareStatusLabel, type SoftwareRule } from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import Tooltip from "@mui/material/Tooltip";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";

/** A firmware status in words (spec section 4): 'Ready', 'Invalid resource', 'HTTP Error 404'… */
export function softwareStatusText(t: TFunction, status: number): string {
  const label = firmwareStatusLabel(status);
  return label.key === "httpError"
    ? t("software.status.httpError", { code: label.params.code })
    : t(`software.status.${label.key}`);
}

function chipColor(status: number): "success" | "info" | "error" {
  if (status === 2) return "success";
  if (status === 0 || status === 1) return "info";
  return "error";
}

/** The rule's status as a chip; the reason of an error in its tooltip. */
export function SoftwareStatusChip({ rule }: { rule: Pick<SoftwareRule, "status" | "error"> }) {
  const { t } = useTranslation();
  const chip = (
    <Chip
      size="small"
      color={chipColor(rule.status)}
      variant={rule.status === 2 ? "filled" : "outlined"}
      label={softwareStatusText(t, rule.status)}
      data-testid="software-status"
    />
  );
  return rule.error ? <Tooltip title={rule.error}>{chip}</Tooltip> : chip;
}
