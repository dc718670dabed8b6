import type { Profile } from "@cellfleet/contract";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Divider from "@mui/material/Divider";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { roleText } from "../../components/roleText";
import { healthQueryOptions } from "./profile.queries";

function Row({ label, value }: { label: string; value: string }) {
  return (
    <Stack direction="row" spacing={2} sx={{ justifyContent: "space-between" }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography sx={{ textAlign: "right", wordBreak: "break-word" }}>{value}</Typography>
    </Stack>
  );
}

/** Read-only facts of the own profile, and the software version from /api/health. */
export function ProfileSummary({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation();
  const health = useQuery(healthQueryOptions());
  const lastLogin =
    profile.last_login === null
      ? t("profile.never")
      : new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(
          new Date(profile.last_login),
        );
  const version = health.data?.version ?? (health.isPending ? "…" : t("profile.versionUnknown"));

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={1.5}>
          <Typography variant="h6" component="h2">
            {t("profile.account")}
          </Typography>
          <Row label={t("profile.username")} value={profile.username} />
          <Row label={t("profile.role")} value={roleText(t, profile)} />
          <Row label={t("profile.domain")} value={profile.domain_name ?? t("profile.noDomain")} />
          <Row label={t("profile.lastLogin")} value={lastLogin} />
          <Divider />
          <Row label={t("profile.softwareVersion")} value={version} />
        </Stack>
      </CardContent>
    </Card>
  );
}
