import { type RolloutDryRun, RolloutDryRunSchema, type SoftwareRule } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../app/api/handleTransportError";
import { apiRequest } from "../../app/api/http";
import { RolloutOptionsFields } from "./RolloutOptionsFields";

/** Routers a stage line names before it says how many more. */
const SHOWN_PER_STAGE = 8;

/** A router as the dry run names it: its ident and its domain (a rollout spans customers, ADR 031). */
const routerLabel = (router: { ident: string; domain_name: string }) =>
  `${router.ident} · ${router.domain_name}`;

function StageLine({ label, routers }: { label: string; routers: RolloutDryRun["stages"][number] }) {
  const { t } = useTranslation();
  const more = routers.length - SHOWN_PER_STAGE;
  return (
    <Stack spacing={0.5} data-testid="rollout-stage">
      <Typography variant="subtitle2">
        {t("software.rollout.stage", { label, count: routers.length })}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: "wrap", gap: 0.5 }}>
        {routers.slice(0, SHOWN_PER_STAGE).map((router) => (
          <Chip key={router._id} size="small" variant="outlined" label={routerLabel(router)} />
        ))}
        {more > 0 ? <Chip size="small" label={t("software.rollout.more", { count: more })} /> : null}
      </Stack>
    </Stack>
  );
}

/** Chips of how many routers each reason names. */
function ReasonChips({ list }: { list: ReadonlyArray<{ reason: string }> }) {
  const { t } = useTranslation();
  const reasons = new Map<string, number>();
  for (const item of list) reasons.set(item.reason, (reasons.get(item.reason) ?? 0) + 1);
  return (
    <Stack direction="row" sx={{ flexWrap: "wrap", gap: 0.5 }}>
      {[...reasons].map(([reason, count]) => (
        <Chip key={reason} size="small" label={`${t(`software.rollout.reason.${reason}`)}: ${count}`} />
      ))}
    </Stack>
  );
}

/** The routers on a weak link now: a held last stage, each sent once its link is good. */
function WaitingView({ waiting }: { waiting: RolloutDryRun["waiting"] }) {
  const { t } = useTranslation();
  const more = waiting.length - SHOWN_PER_STAGE;
  return (
    <Stack spacing={0.5} data-testid="rollout-waiting">
      <Typography variant="subtitle2">{t("software.rollout.waiting", { count: waiting.length })}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t("software.rollout.waitingHint")}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: "wrap", gap: 0.5 }}>
        {waiting.slice(0, SHOWN_PER_STAGE).map((router) => (
          <Chip
            key={router._id}
            size="small"
            variant="outlined"
            label={`${routerLabel(router)} · ${t(`software.rollout.reason.${router.reason}`)}`}
          />
        ))}
        {more > 0 ? <Chip size="small" label={t("software.rollout.more", { count: more })} /> : null}
      </Stack>
      {more > 0 ? <ReasonChips list={waiting} /> : null}
    </Stack>
  );
}

/** The domains the rollout would be offered to: their routers, and who accepts (ADR 031). */
function DomainsView({ domains }: { domains: RolloutDryRun["domains"] }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={0.5} data-testid="rollout-dry-domains">
      <Typography variant="subtitle2">
        {t("software.rollout.domains.title", { count: domains.length })}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: "wrap", gap: 0.5 }}>
        {domains.map((domain) => (
          <Chip
            key={domain._id}
            size="small"
            color={domain.auto_accept ? "success" : "warning"}
            variant="outlined"
            label={t(
              domain.auto_accept ? "software.rollout.domains.choiceAuto" : "software.rollout.domains.choice",
              { name: domain.name, count: domain.routers },
            )}
          />
        ))}
      </Stack>
    </Stack>
  );
}

function PlanView({ plan }: { plan: RolloutDryRun }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={1.5}>
      <Typography>{t("software.rollout.version", { version: plan.version })}</Typography>
      {plan.domains.length > 0 ? <DomainsView domains={plan.domains} /> : null}
      {plan.stages.length === 0 && plan.waiting.length === 0 ? (
        <Alert severity="info">{t("software.rollout.nobody")}</Alert>
      ) : null}
      {plan.stages.map((stage, index) => (
        <StageLine
          key={stage[0]?._id ?? index}
          label={index === 0 ? t("software.rollout.canary") : t("software.rollout.wave", { n: index })}
          routers={stage}
        />
      ))}
      {plan.waiting.length > 0 ? <WaitingView waiting={plan.waiting} /> : null}
      {plan.skipped.length > 0 ? (
        <Stack spacing={0.5} data-testid="rollout-skipped">
          <Typography variant="subtitle2">
            {t("software.rollout.skipped", { count: plan.skipped.length })}
          </Typography>
          <ReasonChips list={plan.skipped} />
        </Stack>
      ) : null}
    </Stack>
  );
}

/** A staged rollout's dry run: canary share and wave size in, the routers per stage, those that will wait for a better link and those skipped out. */
export function RolloutDryRunCard({ rule }: { rule: SoftwareRule }) {
  const { t } = useTranslation();
  const [percent, setPercent] = useState("5");
  const [waveSize, setWaveSize] = useState("50");
  const dryRun = useMutation({
    mutationFn: () =>
      apiRequest("POST /api/software/{id}/rollout/dry-run", {
        params: { id: rule._id },
        body: { canary: { percent: Number(percent) }, waveSize: Number(waveSize) },
        schema: RolloutDryRunSchema,
        quiet: true,
      }),
  });
  const isReady = rule.status === 2;
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            {t("software.rollout.title")}
          </Typography>
          {!isReady ? <Alert severity="info">{t("software.rollout.notReady")}</Alert> : null}
          <RolloutOptionsFields
            percent={percent}
            waveSize={waveSize}
            onPercentChange={setPercent}
            onWaveSizeChange={setWaveSize}
          >
            <Button
              data-testid="rollout-dry-run"
              variant="outlined"
              disabled={!isReady}
              loading={dryRun.isPending}
              onClick={() => dryRun.mutate()}
            >
              {t("software.rollout.dryRun")}
            </Button>
          </RolloutOptionsFields>
          {dryRun.isError ? <Alert severity="error">{apiErrorText(dryRun.error)}</Alert> : null}
          {dryRun.data ? <PlanView plan={dryRun.data} /> : null}
        </Stack>
      </CardContent>
    </Card>
  );
}
