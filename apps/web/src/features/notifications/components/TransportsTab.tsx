import type { Transport } from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import { useTheme } from "@mui/material/styles";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useOffers } from "../../../app/session/useOffers";
import { AccountingList, type ListColumn } from "../../../components/AccountingList";
import { useListState } from "../../../components/list-card";
import { transportListQueryOptions } from "../transports.queries";

/** Where a provider sends: the chat, the webhook's host, or the mail's recipients. */
export function transportTarget(transport: Transport): string {
  if (transport.telegram) return transport.telegram.chat_id;
  if (transport.webhook) return transport.webhook.host;
  return transport.smtp?.to || transport.smtp?.host || "—";
}

/** The providers: type, where they send, health (a provider failing repeatedly is unhealthy), rules using it. */
export function TransportsTab() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const [state, update] = useListState("notifications.transports");
  const query = useQuery({
    ...transportListQueryOptions(),
    select: (items) => {
      const search = state.search.trim().toLowerCase();
      return search ? items.filter((item) => item.name.toLowerCase().includes(search)) : items;
    },
  });

  // A phone shows the name with the type and target under it, and the health.
  const isPhone = useMediaQuery(useTheme().breakpoints.down("sm"));
  const detailColumns: ListColumn<Transport>[] = [
    {
      key: "type",
      label: t("notifications.transports.type"),
      render: (transport) => t(`notifications.types.${transport.type}`),
    },
    {
      key: "target",
      label: t("notifications.transports.target"),
      render: (transport) => <span style={{ overflowWrap: "anywhere" }}>{transportTarget(transport)}</span>,
    },
  ];
  const columns: ListColumn<Transport>[] = [
    {
      key: "name",
      label: t("notifications.transports.name"),
      render: (transport) =>
        isPhone ? (
          <Stack spacing={0.5}>
            <span>{transport.name}</span>
            <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
              {`${t(`notifications.types.${transport.type}`)} · ${transportTarget(transport)}`}
            </Typography>
          </Stack>
        ) : (
          transport.name
        ),
    },
    ...(isPhone ? [] : detailColumns),
    {
      key: "health",
      label: t("notifications.transports.health"),
      render: (transport) =>
        transport.health.healthy ? (
          <Chip
            size="small"
            color="success"
            variant="outlined"
            label={t("notifications.transports.healthy")}
          />
        ) : (
          <Tooltip title={transport.health.last_error ?? ""}>
            <Chip
              size="small"
              color="error"
              data-testid="transport-unhealthy"
              label={t("notifications.transports.unhealthy", { count: transport.health.failures })}
            />
          </Tooltip>
        ),
    },
    ...(isPhone
      ? []
      : [
          {
            key: "rules",
            label: t("notifications.transports.rules"),
            render: (transport: Transport) => transport.rules,
          },
        ]),
  ];

  return (
    <AccountingList
      prefix="notifications.transports"
      title={t("notifications.transports.title")}
      state={state}
      onStateChange={update}
      query={query}
      columns={columns}
      rowKey={(transport) => transport._id}
      onRowClick={(transport) => navigate(`/notifications/transport/${transport._id}/edit`)}
      onAdd={offers("transports.edit") ? () => navigate("/notifications/transport/new") : undefined}
      emptyText={t("notifications.transports.empty")}
      testId="transports-table"
    />
  );
}
