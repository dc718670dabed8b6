import { defaultPathFor } from "@cellfleet/contract";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSession } from "../../app/session/useSession";
import { PageTitle } from "../../components/PageTitle";

/** /notFound: the page a missing object leads to, with a way home. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const user = useSession();
  return (
    <>
      <PageTitle>{t("routes.notFound")}</PageTitle>
      <Paper variant="outlined" sx={{ p: 4 }}>
        <Stack spacing={2} sx={{ alignItems: "flex-start" }}>
          <Typography>{t("notFound.text")}</Typography>
          <Button variant="contained" component={Link} to={defaultPathFor(user)}>
            {t("notFound.home")}
          </Button>
        </Stack>
      </Paper>
    </>
  );
}
