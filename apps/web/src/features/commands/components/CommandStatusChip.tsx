import {
  type ActionStatus,
  actionStatusLabelKey,
  type Command,
  type ExecutionStatus,
  isPartlyCompleted,
} from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";

type ChipColor = "default" | "info" | "success" | "warning" | "error";

const COMMAND_COLORS: Record<ActionStatus, ChipColor> = {
  unapproved: "warning",
  delayed: "default",
  in_progress: "info",
  completed: "success",
  failed: "error",
  cancelled: "default",
  expired: "default",
};

const EXECUTION_COLORS: Record<ExecutionStatus, ChipColor> = {
  unapproved: "warning",
  delayed: "default",
  queued: "default",
  sent: "info",
  in_progress: "info",
  completed: "success",
  failed: "error",
  expired: "default",
  cancelled: "default",
  timed_out: "error",
  attempts_exceeded: "error",
};

/** A command's status as the lists and its page say it: a failed one that also completed somewhere is "partly completed". */
export function commandStatusText(
  t: TFunction,
  command: Pick<Command, "status" | "counts" | "total">,
): string {
  const status = command.status as ActionStatus;
  return isPartlyCompleted(status, command.counts)
    ? t("commands.status.partlyCompleted", { done: command.counts.completed ?? 0, total: command.total })
    : t(`commands.status.${actionStatusLabelKey(status)}`);
}

/**
 * A command's status of spec section 4 as a chip; a failed command that completed on some routers
 * reads "Partly completed: 9 of 10" in the warning colour instead of a red "Failed" (issue 27).
 */
export function CommandStatusChip({ command }: { command: Pick<Command, "status" | "counts" | "total"> }) {
  const { t } = useTranslation();
  const status = command.status as ActionStatus;
  const isPartly = isPartlyCompleted(status, command.counts);
  return (
    <Chip
      size="small"
      color={isPartly ? "warning" : COMMAND_COLORS[status]}
      variant={status === "completed" || status === "failed" ? "filled" : "outlined"}
      label={commandStatusText(t, command)}
      data-testid="command-status"
      data-status={isPartly ? "partly_completed" : status}
    />
  );
}

/** One router's execution status as a chip. */
export function ExecutionStatusChip({ status }: { status: ExecutionStatus }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={EXECUTION_COLORS[status]}
      variant="outlined"
      label={t(`commands.execution.${status}`)}
      data-testid="execution-status"
    />
  );
}
