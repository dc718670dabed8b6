import Alert from "@mui/material/Alert";
import Stack from "@mui/material/Stack";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { notice } from "../../app/messages/texts";
import { useOffers } from "../../app/session/useOffers";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { CommandTypesCard } from "./components/CommandTypesCard";
import { DomainSettingsForm } from "./components/DomainSettingsForm";
import { EventTypesCard } from "./components/EventTypesCard";
import { RolloutOffersCard } from "./components/RolloutOffersCard";
import { ScheduleRulesCard } from "./schedules/components/ScheduleRulesCard";
import { UptimeMailRulesCard } from "./schedules/components/UptimeMailRulesCard";
import { domainSettingsQueryOptions } from "./settings.queries";

/**
 * /settings (spec section 2): the domain's status thresholds and saved copies, the backup and journal
 * rule tables and the monthly uptime mails (admins: only they load the crontab), root's firmware rollouts offered to the domain
 * (admins accept or decline them, ADR 031), the custom action types (helpers and admins;
 * admins change them) and the event types.
 * Superusers have no domain settings (no menu entry; typed in, the page says access is denied).
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const offers = useOffers();
  const mayView = offers("settings.view");
  const isReadOnly = !offers("settings.save");
  const settings = useQuery({ ...domainSettingsQueryOptions(), enabled: mayView });
  return (
    <>
      <PageTitle>{t("routes.settings")}</PageTitle>
      {mayView ? (
        <Stack spacing={2} sx={{ maxWidth: 960 }}>
          <QueryState query={settings}>
            {(data) => <DomainSettingsForm settings={data} isReadOnly={isReadOnly} />}
          </QueryState>
          {offers("rolloutOffers.view") ? (
            <RolloutOffersCard settings={settings.data} mayDecide={offers("rolloutOffers.decide")} />
          ) : null}
          {offers("crontab.view") ? (
            <>
              <ScheduleRulesCard type="backup" />
              <ScheduleRulesCard type="journal" />
              <UptimeMailRulesCard mayManage={offers("crontab.manage")} />
            </>
          ) : null}
          {offers("commandTypes.view") ? (
            <CommandTypesCard mayManage={offers("commandTypes.manage")} />
          ) : null}
          <EventTypesCard isReadOnly={isReadOnly} />
        </Stack>
      ) : (
        <Alert severity="warning">{notice("accessDenied")}</Alert>
      )}
    </>
  );
}
