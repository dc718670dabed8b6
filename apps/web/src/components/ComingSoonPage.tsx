import type { RouteName } from "@cellfleet/contract";
import ConstructionIcon from "@mui/icons-material/Construction";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { PageTitle } from "./PageTitle";

/**
 * The one stand-in for every page whose feature belongs to a later issue: the page's own title and
 * an honest note that it is not built yet. It never shows invented data.
 */
export function ComingSoonPage({ route }: { route: RouteName }) {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t(`routes.${route}`)}</PageTitle>
      <Paper data-testid="coming-soon" variant="outlined" sx={{ p: { xs: 3, sm: 5 } }}>
        <Stack spacing={2} sx={{ alignItems: "center", textAlign: "center" }}>
          <ConstructionIcon color="action" sx={{ fontSize: 48 }} />
          <Typography variant="h6" component="p">
            {t("comingSoon.title")}
          </Typography>
          <Typography color="text.secondary" sx={{ maxWidth: 520 }}>
            {t("comingSoon.text")}
          </Typography>
        </Stack>
      </Paper>
    </>
  );
}
