import LinearProgress from "@mui/material/LinearProgress";
import { useTranslation } from "react-i18next";
import { useIsLoading } from "../loading/loadingStore";

/** A thin bar at the very top while a request runs over a second or the socket reconnects. */
export function LoadingBar() {
  const { t } = useTranslation();
  const isLoading = useIsLoading();
  if (!isLoading) return null;
  return (
    <LinearProgress
      data-testid="loading-bar"
      aria-label={t("app.loading")}
      sx={{ position: "fixed", top: 0, left: 0, right: 0, zIndex: (theme) => theme.zIndex.tooltip + 1 }}
    />
  );
}
