import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PageTitle } from "../../components/PageTitle";

/** /registry: company registration is a later issue; the page says so and leads back. */
export function RegistryPage() {
  const { t } = useTranslation();
  return (
    <Stack sx={{ maxWidth: 560, mx: "auto", mt: { xs: 1, sm: 4 } }}>
      <PageTitle>{t("routes.registry")}</PageTitle>
      <Paper data-testid="coming-soon" variant="outlined" sx={{ p: 4 }}>
        <Stack spacing={2} sx={{ alignItems: "flex-start" }}>
          <Typography variant="h6" component="p">
            {t("comingSoon.title")}
          </Typography>
          <Typography color="text.secondary">{t("registry.comingSoon")}</Typography>
          <Stack direction="row" spacing={2}>
            <Button variant="contained" component={Link} to="/login">
              {t("login.backToLogin")}
            </Button>
            <Button component={Link} to="/demo">
              {t("login.demo")}
            </Button>
          </Stack>
        </Stack>
      </Paper>
    </Stack>
  );
}
