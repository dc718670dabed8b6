import { useTranslation } from "react-i18next";
import type { DeviceFacetName } from "../deviceListRequest";

/** The text of a facet value: statuses, signal and presence are translated; "" is 'not reported'. */
export function useFacetValueLabel() {
  const { t } = useTranslation();
  return (facet: DeviceFacetName | string, value: string): string => {
    if (facet === "status") return t(`fleet.status.${value}`);
    if (facet === "signal") return t(`fleet.signal.${value}`);
    if (facet === "backups" || facet === "journals") return t(`fleet.facets.presence.${value}`);
    if (facet === "file_type") return t(`files.types.${value}`);
    return value === "" ? t("fleet.facets.notReported") : value;
  };
}
