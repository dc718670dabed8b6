import {
  LatestRolloutSchema,
  RolloutDryRunSchema,
  type RolloutProgress,
  RolloutProgressSchema,
  type SoftwareRule,
} from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../app/api/handleTransportError";
import { apiRequest } from "../../app/api/http";
import { useRealtimeLive } from "../../app/realtime/useRealtime";
import { ConfirmDialog, type ConfirmQuestion } from "../../components/ConfirmDialog";
import { windowOf } from "../../components/time-window/timeWindow";
import { softwareKeys } from "./keys";
import { RolloutDomainChoice } from "./RolloutDomainChoice";
import { RolloutDomainsTable } from "./RolloutDomainsTable";
import { RolloutOptionsFields } from "./RolloutOptionsFields";
import { RolloutWindowFields } from "./RolloutWindowFields";
import { rolloutFigures } from "./rolloutConfirm";

/** While a rollout runs and the socket is down its progress is read again this often (pushes keep it live). */
const FALLBACK_POLL_MS = 10_000;
const COLUMNS = ["waiting", "sent", "succeeded", "failed", "skipped"] as const;
const HOLDS = ["offer", "window", "cellEdge", "backupSim", "roaming"] as const;
type Action = "pause" | "resume" | "cancel" | "retry";

function ProgressView({
  rollout,
  onAction,
  busy,
}: {
  rollout: RolloutProgress;
  onAction: (a: Action) => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const isOver = rollout.status === "cancelled" || rollout.status === "completed";
  const hasFailed = rollout.failures.length > 0;
  const count = (state: "waiting" | "sent") => rollout.stages.reduce((sum, stage) => sum + stage[state], 0);
  const held = HOLDS.reduce((sum, hold) => sum + rollout.held[hold], 0);
  // The routers on a weak link at the start are a stage of their own after the waves (ADR 021).
  const stageLabel = (index: number) => {
    if (index === rollout.link_stage) return t("software.rollout.linkStage");
    return index === 0 ? t("software.rollout.canary") : t("software.rollout.wave", { n: index });
  };
  // Nothing under way and every router left is held: the rollout waits for them (ADR 021).
  const isOnlyHeld =
    rollout.status === "running" && count("sent") === 0 && held > 0 && count("waiting") === held;
  // Every router left belongs to a domain that has not answered the offer (ADR 031).
  const isOnlyOffered = isOnlyHeld && rollout.held.offer === held;
  return (
    <Stack spacing={1.5} data-testid="rollout-progress">
      <Stack direction="row" sx={{ alignItems: "center", flexWrap: "wrap", gap: 1 }}>
        <Typography>{t("software.rollout.version", { version: rollout.version })}</Typography>
        <Chip
          size="small"
          label={t(`software.rollout.status.${rollout.status}`)}
          data-testid="rollout-status"
        />
      </Stack>
      {rollout.pause_reason ? (
        <Alert severity="warning">
          {t("software.rollout.pausedBecause", { reason: rollout.pause_reason })}
        </Alert>
      ) : null}
      {HOLDS.some((hold) => rollout.held[hold] > 0) ? (
        <Stack direction="row" sx={{ alignItems: "center", flexWrap: "wrap", gap: 1 }}>
          <Typography variant="body2">{t("software.rollout.heldTitle")}</Typography>
          {HOLDS.filter((hold) => rollout.held[hold] > 0).map((hold) => (
            <Chip
              key={hold}
              size="small"
              variant="outlined"
              data-testid={`rollout-held-${hold}`}
              label={t(`software.rollout.held.${hold}`, { count: rollout.held[hold] })}
            />
          ))}
        </Stack>
      ) : null}
      {isOnlyHeld ? (
        <Alert severity="info" data-testid="rollout-only-held">
          {t(isOnlyOffered ? "software.rollout.onlyOffered" : "software.rollout.onlyHeld")}
        </Alert>
      ) : null}
      <Box sx={{ overflowX: "auto" }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t("software.rollout.stageColumn")}</TableCell>
              {COLUMNS.map((column) => (
                <TableCell key={column} align="right">
                  {t(`software.rollout.state.${column}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rollout.stages.map((stage, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: stages are positional and never reordered
              <TableRow key={index} selected={index === rollout.stage && !isOver}>
                <TableCell
                  sx={{ whiteSpace: "nowrap" }}
                  data-testid={index === rollout.link_stage ? "rollout-link-stage" : undefined}
                >
                  {stageLabel(index)}
                </TableCell>
                {COLUMNS.map((column) => (
                  <TableCell key={column} align="right">
                    {stage[column]}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <Stack direction="row" sx={{ flexWrap: "wrap", gap: 1 }}>
        {rollout.status === "running" ? (
          <Button variant="outlined" disabled={busy} onClick={() => onAction("pause")}>
            {t("software.rollout.pause")}
          </Button>
        ) : null}
        {rollout.status === "paused" ? (
          <Button variant="outlined" disabled={busy} onClick={() => onAction("resume")}>
            {t("software.rollout.resume")}
          </Button>
        ) : null}
        {hasFailed && rollout.status !== "cancelled" ? (
          <Button variant="outlined" disabled={busy} onClick={() => onAction("retry")}>
            {t("software.rollout.retry")}
          </Button>
        ) : null}
        {!isOver ? (
          <Button color="error" variant="outlined" disabled={busy} onClick={() => onAction("cancel")}>
            {t("software.rollout.cancel")}
          </Button>
        ) : null}
      </Stack>
    </Stack>
  );
}

/** A rule's rollout: start one (canary share, wave size), then its progress per stage and its controls. */
export function RolloutCard({ rule }: { rule: SoftwareRule }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [percent, setPercent] = useState("5");
  const [waveSize, setWaveSize] = useState("50");
  const [windowStart, setWindowStart] = useState("");
  const [windowEnd, setWindowEnd] = useState("");
  const maintenance = windowOf(windowStart, windowEnd);
  const isWindowValid = maintenance !== "partial" && maintenance !== "empty";
  const key = [...softwareKeys.rule(rule._id), "rollout"];
  const isLive = useRealtimeLive();
  const latest = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      apiRequest("POST /api/software/{id}/rollouts", {
        params: { id: rule._id },
        body: {},
        schema: LatestRolloutSchema,
        signal,
      }),
    refetchInterval: (query) =>
      !isLive && query.state.data?.rollout?.status === "running" ? FALLBACK_POLL_MS : false,
  });
  const settled = () => queryClient.invalidateQueries({ queryKey: key });
  const rollout = latest.data?.rollout ?? null;
  const canStart =
    rule.status === 2 &&
    (rollout === null || rollout.status === "cancelled" || rollout.status === "completed");
  // The domains it would be offered to (ADR 031): the dry run's, every one ticked unless root unticks it.
  const candidates = useQuery({
    queryKey: [...key, "domains"],
    enabled: canStart,
    queryFn: ({ signal }) =>
      apiRequest("POST /api/software/{id}/rollout/dry-run", {
        params: { id: rule._id },
        body: { canary: { count: 1 }, waveSize: 100_000 },
        schema: RolloutDryRunSchema,
        signal,
        quiet: true,
      }),
  });
  const [excluded, setExcluded] = useState<ReadonlySet<string>>(new Set());
  const handleToggle = (domainId: string) =>
    setExcluded((before) => {
      const after = new Set(before);
      if (!after.delete(domainId)) after.add(domainId);
      return after;
    });
  const offeredTo = (candidates.data?.domains ?? []).filter((domain) => !excluded.has(domain._id));
  const domains = excluded.size === 0 ? null : offeredTo.map((domain) => domain._id);
  const hasNoDomain = excluded.size > 0 && offeredTo.length === 0;
  const start = useMutation({
    mutationFn: () =>
      apiRequest("POST /api/software/{id}/rollout", {
        params: { id: rule._id },
        body: {
          canary: { percent: Number(percent) },
          waveSize: Number(waveSize),
          window: isWindowValid ? maintenance : null,
          domains,
        },
        schema: RolloutProgressSchema,
        quiet: true,
      }),
    onSuccess: settled,
  });
  const control = useMutation({
    mutationFn: (action: Action) =>
      apiRequest(`POST /api/rollout/{rollout_id}/${action}`, {
        params: { rollout_id: latest.data?.rollout?._id ?? "" },
        schema: RolloutProgressSchema,
        quiet: true,
      }),
    onSuccess: settled,
  });
  // Starting and pausing ask once, naming how many routers in how many domains (issue 27).
  const [asking, setAsking] = useState<{ question: ConfirmQuestion; run: () => void } | null>(null);
  const handleStart = async () => {
    const plan = await apiRequest("POST /api/software/{id}/rollout/dry-run", {
      params: { id: rule._id },
      body: { canary: { percent: Number(percent) }, waveSize: Number(waveSize), domains },
      schema: RolloutDryRunSchema,
      quiet: true,
    }).catch(() => null);
    const figures = plan ? rolloutFigures(plan) : null;
    setAsking({
      question: {
        title: t("software.rollout.confirm.startTitle", { version: plan?.version ?? rule.models.join(", ") }),
        text: figures
          ? t("software.rollout.confirm.start", { ...figures })
          : t("software.rollout.confirm.startUnknown"),
        confirm: t("software.rollout.start"),
        isDangerous: true,
      },
      run: () => start.mutate(undefined, { onSettled: () => setAsking(null) }),
    });
  };
  const handleAction = (action: Action) => {
    if (action !== "pause" || !rollout) return control.mutate(action);
    const waiting = rollout.stages.reduce((sum, stage) => sum + stage.waiting, 0);
    setAsking({
      question: {
        title: t("software.rollout.confirm.pauseTitle"),
        text: t("software.rollout.confirm.pause", { waiting }),
        confirm: t("software.rollout.pause"),
      },
      run: () => control.mutate("pause", { onSettled: () => setAsking(null) }),
    });
  };
  const error = start.error ?? control.error;
  return (
    <Card variant="outlined" data-testid="rollout-card">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            {t("software.rollout.runTitle")}
          </Typography>
          {rollout ? (
            <>
              <ProgressView rollout={rollout} busy={control.isPending} onAction={handleAction} />
              <RolloutDomainsTable domains={rollout.domains} />
            </>
          ) : (
            <Typography color="text.secondary">{t("software.rollout.none")}</Typography>
          )}
          {canStart && candidates.data ? (
            <RolloutDomainChoice
              domains={candidates.data.domains}
              excluded={excluded}
              onToggle={handleToggle}
            />
          ) : null}
          {canStart ? (
            <RolloutWindowFields
              start={windowStart}
              end={windowEnd}
              onStartChange={setWindowStart}
              onEndChange={setWindowEnd}
            />
          ) : null}
          {canStart ? (
            <RolloutOptionsFields
              percent={percent}
              waveSize={waveSize}
              onPercentChange={setPercent}
              onWaveSizeChange={setWaveSize}
            >
              <Button
                data-testid="rollout-start"
                variant="contained"
                loading={start.isPending}
                disabled={!isWindowValid || hasNoDomain}
                onClick={() => void handleStart()}
              >
                {t("software.rollout.start")}
              </Button>
            </RolloutOptionsFields>
          ) : null}
          {error ? <Alert severity="error">{apiErrorText(error)}</Alert> : null}
          <ConfirmDialog
            question={asking?.question ?? null}
            onConfirm={() => asking?.run()}
            onClose={() => setAsking(null)}
            isBusy={start.isPending || control.isPending}
          />
        </Stack>
      </CardContent>
    </Card>
  );
}
