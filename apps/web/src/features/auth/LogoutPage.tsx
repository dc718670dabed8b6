import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { signOut } from "../../app/session/session.api";

/** /logout: ends the session on the server and here; the route guard then shows /login. */
export function LogoutPage() {
  const { t } = useTranslation();
  useEffect(() => {
    void signOut();
  }, []);
  return (
    <Stack spacing={2} sx={{ alignItems: "center", mt: 6 }}>
      <Typography data-testid="page-title" variant="h5" component="h1">
        {t("routes.logout")}
      </Typography>
      <CircularProgress aria-label={t("app.loading")} />
    </Stack>
  );
}
