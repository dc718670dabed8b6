import { type ActionStatus, actionStatusLabelKey, type ExecutionStatus } from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
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

/** A command's status of spec section 4 as a chip. */
export function CommandStatusChip({ status }: { status: ActionStatus }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={COMMAND_COLORS[status]}
      variant={status === "completed" || status === "failed" ? "filled" : "outlined"}
      label={t(`commands.status.${actionStatusLabelKey(status)}`)}
      data-testid="command-status"
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
