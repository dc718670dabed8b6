import Typography from "@mui/material/Typography";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";

/** A page's heading (data-testid page-title); it also names the browser tab. */
export function PageTitle({ children }: { children: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${children} · ${t("app.name")}`;
  }, [children, t]);
  return (
    <Typography data-testid="page-title" variant="h5" component="h1" sx={{ mb: 2, fontWeight: 600 }}>
      {children}
    </Typography>
  );
}
