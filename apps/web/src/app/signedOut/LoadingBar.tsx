import { useTranslation } from "react-i18next";
import { useIsLoading } from "../loading/loadingStore";

/** MUI's indeterminate LinearProgress at the very top while a request runs over a second. */
export function LoadingBar() {
  const { t } = useTranslation();
  if (!useIsLoading()) return null;
  return (
    <div
      className="so-loading-bar"
      data-testid="loading-bar"
      role="progressbar"
      aria-label={t("app.loading")}
    />
  );
}
