import Alert from "@mui/material/Alert";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useSession } from "../../app/session/useSession";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { ChangePasswordForm } from "./ChangePasswordForm";
import { ProfileDetailsForm } from "./ProfileDetailsForm";
import { ProfileSummary } from "./ProfileSummary";
import { profileQueryOptions } from "./profile.queries";
import { SecondFactorCard } from "./SecondFactorCard";
import { ApiTokensSection, DomainTokensSection } from "./tokens/ApiTokensSection";

/** /profile: own data, the password change, the second factor, the software version, and API tokens. */
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
      <QueryState query={profile}>
        {(data) => (
          <Grid container spacing={3}>
            <Grid size={{ xs: 12, lg: 5 }}>
              <ProfileSummary profile={data} />
            </Grid>
            <Grid size={{ xs: 12, lg: 7 }}>
              <Stack spacing={3}>
                <ProfileDetailsForm profile={data} />
                <ChangePasswordForm role={data.role} username={data.username} />
                <SecondFactorCard isPending={user?.second_factor_pending === true} />
              </Stack>
            </Grid>
            {/* Token calls are refused while the person is held on this page (and a 403 signs out). */}
            {user?.factory_password || user?.second_factor_pending ? null : (
              <Grid size={12}>
                <Stack spacing={3}>
                  <ApiTokensSection />
                  <DomainTokensSection />
                </Stack>
              </Grid>
            )}
          </Grid>
        )}
      </QueryState>
    </>
  );
}
