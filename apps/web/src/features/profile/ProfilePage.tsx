import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../app/api/handleTransportError";
import { useSession } from "../../app/session/useSession";
import { PageTitle } from "../../components/PageTitle";
import { ChangePasswordForm } from "./ChangePasswordForm";
import { ProfileDetailsForm } from "./ProfileDetailsForm";
import { ProfileSummary } from "./ProfileSummary";
import { profileQueryOptions } from "./profile.queries";

/** /profile: own data, the password change, and the software version. */
export function ProfilePage() {
  const { t } = useTranslation();
  const user = useSession();
  const profile = useQuery(profileQueryOptions());

  return (
    <>
      <PageTitle>{t("routes.profile")}</PageTitle>
      {user?.factory_password ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t("profile.factoryPasswordNotice")}
        </Alert>
      ) : null}
      {profile.isPending ? (
        <Stack sx={{ alignItems: "center", py: 6 }}>
          <CircularProgress aria-label={t("app.loading")} />
        </Stack>
      ) : profile.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => profile.refetch()}>
              {t("common.retry")}
            </Button>
          }
        >
          {apiErrorText(profile.error)}
        </Alert>
      ) : (
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, lg: 5 }}>
            <ProfileSummary profile={profile.data} />
          </Grid>
          <Grid size={{ xs: 12, lg: 7 }}>
            <Stack spacing={3}>
              <ProfileDetailsForm profile={profile.data} />
              <ChangePasswordForm role={profile.data.role} username={profile.data.username} />
            </Stack>
          </Grid>
        </Grid>
      )}
    </>
  );
}
