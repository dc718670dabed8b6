import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { apiErrorText } from "../../app/api/handleTransportError";
import { signIn } from "../../app/session/session.api";

/** /demo: signs in as the read-only demo user; the route guard then opens the dashboard. */
export function DemoPage() {
  const { t } = useTranslation();
  const started = useRef(false);
  const demo = useMutation({ mutationFn: () => signIn({ demo: true }) });
  const { mutate } = demo;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate();
  }, [mutate]);

  return (
    <Stack spacing={2} sx={{ alignItems: "center", mt: 6, maxWidth: 480, mx: "auto" }}>
      <Typography data-testid="page-title" variant="h5" component="h1">
        {t("routes.demo")}
      </Typography>
      {demo.isError ? (
        <>
          <Alert severity="error" sx={{ width: "100%" }}>
            {apiErrorText(demo.error)}
          </Alert>
          <Stack direction="row" spacing={2}>
            <Button variant="contained" onClick={() => mutate()}>
              {t("common.retry")}
            </Button>
            <Button component={Link} to="/login">
              {t("login.backToLogin")}
            </Button>
          </Stack>
        </>
      ) : (
        <>
          <CircularProgress aria-label={t("app.loading")} />
          <Typography color="text.secondary">{t("demo.signingIn")}</Typography>
        </>
      )}
    </Stack>
  );
}
