import { MONITOR_LABELS, type Rule, resolveLocale } from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import { useTheme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useOffers } from "../../../app/session/useOffers";
import { AccountingList, type ListColumn, stopRowClick } from "../../../components/AccountingList";
import { useListState } from "../../../components/list-card";
import { ruleListQueryOptions, useToggleRule } from "../rules.queries";

/**
 * The rule list (spec section 2): an active toggle that saves, name, monitor and provider; search;
 * the card's total and active counts. Drafts are marked and open in the form to be finished.
 */
export function RulesTab() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const [state, update] = useListState("notifications.rules");
  const options = ruleListQueryOptions(state.search);
  const query = useQuery({ ...options, select: (answer) => answer.items });
  const counts = useQuery(options).data;
  const toggle = useToggleRule();
  const canEdit = offers("notifications.edit");
  const labels = MONITOR_LABELS[resolveLocale(i18n.language)];
  // A phone has room for the toggle and the name: the monitor and provider go under the name.
  const isPhone = useMediaQuery(useTheme().breakpoints.down("sm"));
  const transportOf = (rule: Rule) =>
    rule.transport ? `${rule.transport.name} (${t(`notifications.types.${rule.transport.type}`)})` : "—";

  const columns: ListColumn<Rule>[] = [
    {
      key: "active",
      label: t("notifications.rules.active"),
      render: (rule) => (
        <Switch
          size="small"
          checked={rule.active}
          disabled={!canEdit || rule.draft || (toggle.isPending && toggle.variables?.id === rule._id)}
          onClick={stopRowClick}
          onChange={(event) => toggle.mutate({ id: rule._id, active: event.target.checked })}
          slotProps={{ input: { "aria-label": t("notifications.rules.toggle", { name: rule.name }) } }}
        />
      ),
    },
    {
      key: "name",
      label: t("notifications.rules.name"),
      render: (rule) => (
        <Stack spacing={0.5}>
          <Stack direction="row" sx={{ alignItems: "center", flexWrap: "wrap", gap: 1 }}>
            <span>{rule.name}</span>
            {rule.draft ? (
              <Chip size="small" variant="outlined" label={t("notifications.rules.draft")} />
            ) : null}
            {rule.open_incidents > 0 ? (
              <Chip
                size="small"
                color="error"
                label={t("notifications.rules.openIncidents", { count: rule.open_incidents })}
              />
            ) : null}
          </Stack>
          {isPhone ? (
            <Typography variant="caption" color="text.secondary">
              {`${labels[rule.monitor.name]} · ${transportOf(rule)}`}
            </Typography>
          ) : null}
        </Stack>
      ),
    },
    ...(isPhone
      ? []
      : [
          {
            key: "monitor",
            label: t("notifications.rules.monitor"),
            render: (rule: Rule) => labels[rule.monitor.name],
          },
          { key: "transport", label: t("notifications.rules.transport"), render: transportOf },
        ]),
  ];

  return (
    <AccountingList
      prefix="notifications.rules"
      csvExport={{ section: "rules", body: state.search ? { search: state.search } : {} }}
      title={t("notifications.rules.title")}
      subtitle={
        counts ? t("notifications.rules.counts", { total: counts.total, active: counts.active }) : undefined
      }
      state={state}
      onStateChange={update}
      query={query}
      columns={columns}
      rowKey={(rule) => rule._id}
      onRowClick={(rule) => navigate(`/notifications/rule/${rule._id}`)}
      onAdd={canEdit ? () => navigate("/notifications/rule/new") : undefined}
      emptyText={t("notifications.rules.empty")}
      testId="rules-table"
    />
  );
}
