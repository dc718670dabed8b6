import { DELIVERY_STATES, type Delivery, type DeliveryState } from "@cellfleet/contract";
import ExpandLessIcon from "@mui/icons-material/ExpandLess";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Collapse from "@mui/material/Collapse";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useOffers } from "../../../app/session/useOffers";
import { formatDateTime } from "../../../components/formatDate";
import { ListCard } from "../../../components/list-card";
import { QueryState } from "../../../components/QueryState";
import { deliveryListQueryOptions, useResendDelivery } from "../log.queries";
import { DeliveryDetails } from "./DeliveryDetails";

/** A delivery state's chip colour. */
export const DELIVERY_STATE_COLORS: Record<
  DeliveryState,
  "default" | "info" | "success" | "warning" | "error"
> = {
  queued: "default",
  sending: "info",
  sent: "success",
  retrying: "warning",
  failed: "error",
};

type StateChoice = DeliveryState | "all" | "attention";

function statesOf(choice: StateChoice): DeliveryState[] | undefined {
  if (choice === "all") return undefined;
  if (choice === "attention") return ["retrying", "failed"];
  return [choice];
}

/** One delivery: what, when, through what, its state and attempts; it opens to its text and attempts. */
function DeliveryBlock({
  delivery,
  onResend,
  isResending,
}: {
  delivery: Delivery;
  onResend?: () => void;
  isResending: boolean;
}) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  const canResend = onResend && (delivery.state === "sent" || delivery.state === "failed");
  return (
    <Stack
      data-testid="delivery-row"
      data-state={delivery.state}
      sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: "divider" }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
        <IconButton
          size="small"
          aria-label={t(isOpen ? "notifications.log.hide" : "notifications.log.show")}
          onClick={() => setOpen((open) => !open)}
        >
          {isOpen ? <ExpandLessIcon /> : <ExpandMoreIcon />}
        </IconButton>
        <Stack sx={{ flexGrow: 1, minWidth: 0 }} spacing={0.5}>
          <Typography variant="body2" sx={{ fontWeight: 600, wordBreak: "break-word" }}>
            {delivery.title}
          </Typography>
          <Stack direction="row" sx={{ flexWrap: "wrap", columnGap: 2, rowGap: 0.5, alignItems: "center" }}>
            <Chip
              size="small"
              color={DELIVERY_STATE_COLORS[delivery.state]}
              label={t(`notifications.log.states.${delivery.state}`)}
            />
            <Typography variant="caption" color="text.secondary">
              {formatDateTime(delivery.create_time)}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {delivery.transport
                ? `${delivery.transport.name} · ${t(`notifications.types.${delivery.transport.type}`)}`
                : t("notifications.log.noTransport")}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {t("notifications.log.attemptsOf", { attempts: delivery.attempts, max: delivery.max_attempts })}
            </Typography>
            {delivery.next_attempt_time ? (
              <Typography variant="caption" color="text.secondary">
                {t("notifications.log.next", { time: formatDateTime(delivery.next_attempt_time) })}
              </Typography>
            ) : null}
          </Stack>
          {delivery.last_answer && delivery.state !== "sent" ? (
            <Typography variant="caption" color="error" sx={{ wordBreak: "break-word" }}>
              {delivery.last_answer}
            </Typography>
          ) : null}
        </Stack>
        {canResend ? (
          <Button
            size="small"
            variant="outlined"
            loading={isResending}
            onClick={onResend}
            sx={{ flexShrink: 0 }}
          >
            {t("notifications.log.resend")}
          </Button>
        ) : null}
      </Stack>
      <Collapse in={isOpen} unmountOnExit>
        <DeliveryDetails delivery={delivery} />
      </Collapse>
    </Stack>
  );
}

/**
 * The delivery log: what was sent, what failed and why (each attempt with the provider's answer),
 * what waits for a retry; a failed or sent message can be sent again by those who edit rules.
 */
export function DeliveryLogTab() {
  const { t } = useTranslation();
  const offers = useOffers();
  const [choice, setChoice] = useState<StateChoice>("all");
  const states = statesOf(choice);
  const query = useQuery(deliveryListQueryOptions(states ? { state: states } : {}));
  const resend = useResendDelivery();
  const canResend = offers("notifications.edit");
  return (
    <ListCard
      title={t("notifications.log.title")}
      subtitle={query.data ? t("accounting.list.total", { count: query.data.length }) : undefined}
      filters={
        <TextField
          select
          size="small"
          label={t("notifications.log.stateFilter")}
          value={choice}
          onChange={(event) => setChoice(event.target.value as StateChoice)}
          sx={{ minWidth: 200 }}
          slotProps={{ htmlInput: { "data-testid": "delivery-state-filter" } }}
        >
          {(["all", "attention", ...DELIVERY_STATES] as const).map((value) => (
            <MenuItem key={value} value={value}>
              {t(`notifications.log.choices.${value}`)}
            </MenuItem>
          ))}
        </TextField>
      }
      onReload={() => void query.refetch()}
    >
      <QueryState
        query={query}
        isEmpty={(rows) => rows.length === 0}
        emptyText={t("notifications.log.empty")}
        isInset
      >
        {(rows) => (
          <Stack data-testid="delivery-log">
            {rows.map((delivery) => (
              <DeliveryBlock
                key={delivery._id}
                delivery={delivery}
                onResend={canResend ? () => resend.mutate(delivery._id) : undefined}
                isResending={resend.isPending && resend.variables === delivery._id}
              />
            ))}
          </Stack>
        )}
      </QueryState>
    </ListCard>
  );
}
