import {
  type Command,
  canApprove,
  DANGEROUS_COMMAND_TYPES,
  type Execution,
  needsConfirmation,
} from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { useOffers } from "../../app/session/useOffers";
import { useSession } from "../../app/session/useSession";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import {
  commandQueryOptions,
  executionsQueryOptions,
  useCommandAction,
  useLiveCommands,
} from "./commands.queries";
import { typeLabel } from "./commandTypes";
import { CommandStatusChip } from "./components/CommandStatusChip";
import { ExecutionsTable } from "./components/ExecutionsTable";
import { RenderedText } from "./components/SavedScriptPicker";

const FAILED = ["failed", "timed_out", "attempts_exceeded", "expired"] as const;

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack sx={{ minWidth: 140 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2">{value}</Typography>
    </Stack>
  );
}

/** The approve / decline block an allowed approver sees while the command waits. */
function ApprovalBox({ command }: { command: Command }) {
  const { t } = useTranslation();
  const user = useSession();
  const action = useCommandAction(command._id);
  const [reason, setReason] = useState("");
  const [asking, setAsking] = useState<"approve" | "decline" | null>(null);
  const isAllowed = user !== null && canApprove(user, command.author);
  if (command.status !== "unapproved" || !isAllowed) return null;
  const decide = (decision: "approve" | "decline") =>
    action.mutate(decision === "approve" ? { action: "approve" } : { action: "decline", reason }, {
      onSettled: () => setAsking(null),
    });
  // Approving or declining a wide or dangerous command asks once, naming its routers (issue 27).
  const handleDecision = (decision: "approve" | "decline") =>
    needsConfirmation(command.type, command.targets) ? setAsking(decision) : decide(decision);
  const label = typeLabel(t, command.type);
  const isDangerous = DANGEROUS_COMMAND_TYPES.includes(command.type);
  return (
    <Alert severity="warning" data-testid="approval-box" sx={{ alignItems: "center" }}>
      <Stack spacing={1}>
        <Typography variant="body2">{t("commands.approval.waiting", { count: command.total })}</Typography>
        <TextField
          size="small"
          label={t("commands.approval.reason")}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <Stack direction="row" spacing={1}>
          <Button variant="contained" onClick={() => handleDecision("approve")} disabled={action.isPending}>
            {t("commands.approval.approve")}
          </Button>
          <Button color="error" onClick={() => handleDecision("decline")} disabled={action.isPending}>
            {t("commands.approval.decline")}
          </Button>
        </Stack>
      </Stack>
      <ConfirmDialog
        question={
          asking === null
            ? null
            : {
                title: t(`commands.confirm.${asking}Title`, { type: label }),
                text: [
                  t(`commands.confirm.${asking}Text`, { count: command.total }),
                  asking === "approve" && isDangerous
                    ? t("commands.confirm.irreversible", { type: label })
                    : null,
                ]
                  .filter(Boolean)
                  .join(" "),
                confirm: t(`commands.approval.${asking}`),
                isDangerous: asking === "approve" && isDangerous,
              }
        }
        onConfirm={() => asking && decide(asking)}
        onClose={() => setAsking(null)}
        isBusy={action.isPending}
      />
    </Alert>
  );
}

/** A template command: the text its first router got (each router's own values), for the approver to read. */
function FirstRendered({ rows }: { rows: Execution[] | undefined }) {
  const first = rows?.find((row) => row.rendered !== null);
  if (!first || first.rendered === null) return null;
  return (
    <Box sx={{ mt: 2 }}>
      <RenderedText rendered={{ ident: first.device.ident, text: first.rendered }} />
    </Box>
  );
}

/** /command/{id}: the command, its per-router executions live, approval, cancel and retry the failed. */
export function CommandPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const { command_id: id = "" } = useParams();
  const command = useQuery(commandQueryOptions(id));
  const executions = useQuery(executionsQueryOptions(id));
  const action = useCommandAction(id);
  useLiveCommands();
  const date = (ms: number | null) => (ms === null ? "—" : new Date(ms).toLocaleString(i18n.language));
  return (
    <>
      <PageTitle>{t("routes.command")}</PageTitle>
      <QueryState query={command}>
        {(data) => {
          const failed = FAILED.reduce((sum, status) => sum + (data.counts[status] ?? 0), 0);
          const cancellable =
            (data.counts.unapproved ?? 0) + (data.counts.delayed ?? 0) + (data.counts.queued ?? 0);
          return (
            <Stack spacing={2}>
              <Card>
                <CardContent>
                  <Stack direction="row" spacing={2} sx={{ alignItems: "center", mb: 2, flexWrap: "wrap" }}>
                    <Typography variant="h6" data-testid="command-type">
                      {typeLabel(t, data.type)}
                    </Typography>
                    <CommandStatusChip command={data} />
                  </Stack>
                  <Stack direction="row" sx={{ flexWrap: "wrap", gap: 2 }}>
                    <Fact label={t("commands.columns.author")} value={data.author.name} />
                    <Fact label={t("commands.columns.approver")} value={data.approver?.name ?? "—"} />
                    <Fact
                      label={t("commands.columns.progress")}
                      value={t("commands.progress", { done: data.counts.completed ?? 0, total: data.total })}
                    />
                    <Fact label={t("commands.form.delayedUntil")} value={date(data.delayed_until)} />
                    <Fact label={t("commands.form.runUntil")} value={date(data.run_until)} />
                    <Fact label={t("commands.columns.created")} value={date(data.create_time)} />
                    {data.script ? (
                      <Fact
                        label={t(
                          data.script.kind === "template"
                            ? "commands.form.template"
                            : "commands.form.savedScript",
                        )}
                        value={`${data.script.name} · v${data.script.version}`}
                      />
                    ) : null}
                  </Stack>
                  {typeof data.args.script === "string" ? (
                    <Typography
                      component="pre"
                      variant="body2"
                      sx={{ mt: 2, p: 1, bgcolor: "action.hover", borderRadius: 1, overflowX: "auto" }}
                    >
                      {data.args.script}
                    </Typography>
                  ) : null}
                  <FirstRendered rows={executions.data} />
                  {data.declined_reason ? (
                    <Alert severity="info" sx={{ mt: 2 }}>
                      {t("commands.approval.declined", { reason: data.declined_reason })}
                    </Alert>
                  ) : null}
                  <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
                    {offers("commands.cancel", data.author) && cancellable > 0 ? (
                      <Button
                        variant="outlined"
                        onClick={() => action.mutate({ action: "cancel" })}
                        disabled={action.isPending}
                      >
                        {t("commands.cancel")}
                      </Button>
                    ) : null}
                    {offers("commands.create") && failed > 0 ? (
                      <Button
                        variant="outlined"
                        onClick={() =>
                          action.mutate(
                            { action: "retry-failed" },
                            { onSuccess: (next) => void navigate(`/command/${next._id}`) },
                          )
                        }
                        disabled={action.isPending}
                      >
                        {t("commands.retryFailed", { count: failed })}
                      </Button>
                    ) : null}
                  </Stack>
                </CardContent>
              </Card>
              <ApprovalBox command={data} />
              <Card>
                <QueryState
                  query={executions}
                  isInset
                  isEmpty={(rows) => rows.length === 0}
                  emptyText={t("commands.noExecutions")}
                >
                  {(rows) => <ExecutionsTable rows={rows} />}
                </QueryState>
              </Card>
            </Stack>
          );
        }}
      </QueryState>
    </>
  );
}
