import type { Job, JobState } from "@cellfleet/contract";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import { useTheme } from "@mui/material/styles";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../../components/formatDate";
import { JobError } from "./JobError";

const STATE_COLORS: Record<JobState, "default" | "info" | "success" | "warning" | "error"> = {
  queued: "default",
  running: "info",
  done: "success",
  failed: "warning",
  dead: "error",
};

/** The states a person may give another set of attempts (the server's rule for retry). */
const RETRYABLE: readonly JobState[] = ["failed", "dead"];

interface JobsTableProps {
  jobs: readonly Job[];
  /** The domain column with a name for each domain id; absent for those who see only their own domain. */
  domainNames?: ReadonlyMap<string, string>;
  /** Retries a job; absent when the person may not retry. */
  onRetry?: (job: Job) => void;
  /** The job whose retry is on its way. */
  retryingId?: string | null;
}

type Column = "kind" | "state" | "attempts" | "last_error" | "run_at" | "domain" | "create_time" | "actions";

/**
 * The jobs: kind, state, attempts, last error, times, domain, and Retry where allowed. A table on
 * wide screens; on a phone one block per job, so Retry and the error need no sideways scrolling.
 */
export function JobsTable({ jobs, domainNames, onRetry, retryingId }: JobsTableProps) {
  const { t } = useTranslation();
  const isPhone = useMediaQuery(useTheme().breakpoints.down("sm"));
  const columns: Column[] = [
    "kind",
    "state",
    "attempts",
    "last_error",
    "run_at",
    ...(domainNames ? (["domain"] as const) : []),
    "create_time",
    ...(onRetry ? (["actions"] as const) : []),
  ];

  const cell = (job: Job, column: Column): ReactNode => {
    switch (column) {
      case "kind":
        return <Box sx={{ fontFamily: "monospace", whiteSpace: "nowrap" }}>{job.kind}</Box>;
      case "state":
        return (
          <Chip
            size="small"
            color={STATE_COLORS[job.state]}
            label={t(`accounting.jobs.states.${job.state}`)}
          />
        );
      case "attempts":
        return t("accounting.jobs.attemptsOf", { attempts: job.attempts, max: job.max_attempts });
      case "last_error":
        return <JobError text={job.last_error} />;
      case "run_at":
        return job.finish_time === null ? (
          formatDateTime(job.run_at)
        ) : (
          <>
            {formatDateTime(job.finish_time)}
            <Typography variant="caption" color="text.secondary" component="div">
              {t("accounting.jobs.finished")}
            </Typography>
          </>
        );
      case "domain":
        if (job.domain_id === null) return t("accounting.jobs.platform");
        // The demo domain is not in the domains list: its jobs show the id's start, whole on hover.
        return (
          <span title={job.domain_id}>
            {domainNames?.get(job.domain_id) ?? `${job.domain_id.slice(0, 8)}…`}
          </span>
        );
      case "create_time":
        return formatDateTime(job.create_time);
      case "actions":
        return onRetry && RETRYABLE.includes(job.state) ? (
          <Button
            size="small"
            variant="outlined"
            data-testid="job-retry"
            loading={retryingId === job._id}
            onClick={() => onRetry(job)}
          >
            {t("accounting.jobs.retry")}
          </Button>
        ) : null;
    }
  };

  if (isPhone) {
    const details: Column[] = columns.filter(
      (column) => !["kind", "state", "actions", "last_error"].includes(column),
    );
    return (
      <Stack data-testid="jobs-table">
        {jobs.map((job) => (
          <Box
            key={job._id}
            data-testid="job-row"
            sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: "divider" }}
          >
            <Stack direction="row" sx={{ alignItems: "center", gap: 1, flexWrap: "wrap" }}>
              {cell(job, "kind")}
              {cell(job, "state")}
              <Box sx={{ flexGrow: 1 }} />
              {cell(job, "actions")}
            </Stack>
            <Box sx={{ my: 1 }}>{cell(job, "last_error")}</Box>
            {details.map((column) => (
              <Stack key={column} direction="row" sx={{ gap: 1, typography: "body2" }}>
                <Box sx={{ color: "text.secondary", minWidth: 140 }}>
                  {t(`accounting.jobs.columns.${column}`)}
                </Box>
                <Box>{cell(job, column)}</Box>
              </Stack>
            ))}
          </Box>
        ))}
      </Stack>
    );
  }

  return (
    <TableContainer>
      <Table size="small" data-testid="jobs-table">
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column} sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>
                {t(`accounting.jobs.columns.${column}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {jobs.map((job) => (
            <TableRow key={job._id} data-testid="job-row" sx={{ verticalAlign: "top" }}>
              {columns.map((column) => (
                <TableCell key={column} sx={column === "last_error" ? undefined : { whiteSpace: "nowrap" }}>
                  {cell(job, column)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
