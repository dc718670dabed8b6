import type { DomainSettings, RolloutOffer } from "@cellfleet/contract";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Divider from "@mui/material/Divider";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../../components/formatDate";
import { QueryState } from "../../../components/QueryState";
import { timeOfMinute, windowOf } from "../../../components/time-window/timeWindow";
import { rolloutOffersQueryOptions, useDecideRolloutOffer } from "../settings.queries";

const COLOR = { offered: "warning", accepted: "success", declined: "default" } as const;

const windowText = (window: { start: number; end: number }) =>
  `${timeOfMinute(window.start)}–${timeOfMinute(window.end)}`;

/** One offer: what it is, the domain's answer, and (while it may still change) accept or decline. */
function OfferRow({
  offer,
  defaultWindow,
  mayDecide,
}: {
  offer: RolloutOffer;
  defaultWindow: DomainSettings["rollouts"]["window"];
  mayDecide: boolean;
}) {
  const { t } = useTranslation();
  const decide = useDecideRolloutOffer();
  const initial = offer.window ?? defaultWindow;
  const [start, setStart] = useState(timeOfMinute(initial?.start));
  const [end, setEnd] = useState(timeOfMinute(initial?.end));
  const window = windowOf(start, end);
  const isWindowWrong = window === "partial" || window === "empty";
  const isOver = offer.rollout_status === "completed" || offer.rollout_status === "cancelled";
  const isOpen = mayDecide && !isOver && offer.state !== "declined";
  const stateLabel =
    offer.state === "accepted" && offer.auto
      ? t("settings.rolloutOffers.auto")
      : t(`settings.rolloutOffers.state.${offer.state}`);
  return (
    <Stack spacing={1} data-testid="rollout-offer">
      <Stack direction="row" sx={{ alignItems: "center", flexWrap: "wrap", gap: 1 }}>
        <Typography sx={{ fontWeight: 500, overflowWrap: "anywhere" }}>
          {t("settings.rolloutOffers.name", { rule: offer.rule_name, version: offer.version })}
        </Typography>
        <Chip
          size="small"
          variant="outlined"
          color={COLOR[offer.state]}
          label={stateLabel}
          data-testid="rollout-offer-state"
        />
        {isOver ? (
          <Chip size="small" label={t(`settings.rolloutOffers.rollout.${offer.rollout_status}`)} />
        ) : null}
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {t("settings.rolloutOffers.details", {
          at: formatDateTime(Date.parse(offer.create_time)),
          routers: offer.routers,
          succeeded: offer.succeeded,
        })}
      </Typography>
      {offer.state === "accepted" ? (
        <Typography variant="body2">
          {offer.window
            ? t("settings.rolloutOffers.inWindow", { window: windowText(offer.window) })
            : t("settings.rolloutOffers.anyTime")}
        </Typography>
      ) : null}
      {offer.rollout_window ? (
        <Typography variant="body2" color="text.secondary">
          {t("settings.rolloutOffers.rootWindow", { window: windowText(offer.rollout_window) })}
        </Typography>
      ) : null}
      {isOpen ? (
        <Stack spacing={1}>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            {(
              [
                ["from", start, setStart],
                ["to", end, setEnd],
              ] as const
            ).map(([name, value, setValue]) => (
              <TextField
                key={name}
                size="small"
                type="time"
                sx={{ minWidth: 180 }}
                label={t(`settings.rolloutOffers.${name}`)}
                value={value}
                onChange={(event) => setValue(event.target.value)}
                slotProps={{
                  inputLabel: { shrink: true },
                  htmlInput: { "data-testid": `rollout-offer-${name}` },
                }}
              />
            ))}
          </Stack>
          <Typography variant="body2" color={isWindowWrong ? "error" : "text.secondary"}>
            {isWindowWrong ? t(`settings.rollouts.${window}`) : t("settings.rolloutOffers.windowHint")}
          </Typography>
          <Stack direction="row" sx={{ flexWrap: "wrap", gap: 1 }}>
            <Button
              variant="contained"
              data-testid="rollout-offer-accept"
              disabled={isWindowWrong}
              loading={decide.isPending && decide.variables?.accept !== null}
              onClick={() =>
                decide.mutate({ id: offer._id, accept: { window: isWindowWrong ? null : window } })
              }
            >
              {t(
                offer.state === "accepted"
                  ? "settings.rolloutOffers.change"
                  : window
                    ? "settings.rolloutOffers.acceptInWindow"
                    : "settings.rolloutOffers.accept",
              )}
            </Button>
            <Button
              variant="outlined"
              color="error"
              data-testid="rollout-offer-decline"
              loading={decide.isPending && decide.variables?.accept === null}
              onClick={() => decide.mutate({ id: offer._id, accept: null })}
            >
              {t("settings.rolloutOffers.decline")}
            </Button>
          </Stack>
        </Stack>
      ) : null}
    </Stack>
  );
}

/**
 * Root's firmware rollouts offered to the domain (ADR 031): none reaches its routers until the
 * admin accepts it, now or in the domain's window, unless the domain accepts them automatically.
 */
export function RolloutOffersCard({
  settings,
  mayDecide,
}: {
  settings: DomainSettings | undefined;
  mayDecide: boolean;
}) {
  const { t } = useTranslation();
  const offers = useQuery(rolloutOffersQueryOptions());
  return (
    <Card data-testid="rollout-offers">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            {t("settings.rolloutOffers.title")}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t("settings.rolloutOffers.hint")}
          </Typography>
          <QueryState
            query={offers}
            isEmpty={(items) => items.length === 0}
            emptyText={t("settings.rolloutOffers.empty")}
          >
            {(items) => (
              <Stack spacing={2} divider={<Divider flexItem />}>
                {items.map((offer) => (
                  <OfferRow
                    key={`${offer._id}:${offer.state}`}
                    offer={offer}
                    defaultWindow={settings?.rollouts.window ?? null}
                    mayDecide={mayDecide}
                  />
                ))}
              </Stack>
            )}
          </QueryState>
        </Stack>
      </CardContent>
    </Card>
  );
}
