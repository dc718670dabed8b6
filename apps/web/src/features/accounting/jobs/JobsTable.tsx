import type { Job, JobState } from "@cellfleet/contract";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../shared/formatDate";
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

/** The jobs as a table: kind, state, attempts, last error, times, domain, and Retry where allowed. */
export function JobsTable({ jobs, domainNames, onRetry, retryingId }: JobsTableProps) {
  const { t } = useTranslation();
  const columns = [
    "kind",
    "state",
    "attempts",
    "last_error",
    "run_at",
    ...(domainNames ? ["domain"] : []),
    "create_time",
    ...(onRetry ? ["actions"] : []),
  ];
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
              <TableCell sx={{ fontFamily: "monospace", whiteSpace: "nowrap" }}>{job.kind}</TableCell>
              <TableCell>
                <Chip
                  size="small"
                  color={STATE_COLORS[job.state]}
                  label={t(`accounting.jobs.states.${job.state}`)}
                />
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                {t("accounting.jobs.attemptsOf", { attempts: job.attempts, max: job.max_attempts })}
              </TableCell>
              <TableCell>
                <JobError text={job.last_error} />
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                {job.finish_time === null ? (
                  formatDateTime(job.run_at)
                ) : (
                  <>
                    {formatDateTime(job.finish_time)}
                    <Typography variant="caption" color="text.secondary" component="div">
                      {t("accounting.jobs.finished")}
                    </Typography>
                  </>
                )}
              </TableCell>
              {domainNames ? (
                <TableCell sx={{ whiteSpace: "nowrap" }}>
                  {job.domain_id === null ? (
                    t("accounting.jobs.platform")
                  ) : (
                    // The demo domain is not in the domains list: its jobs show the id's start, whole on hover.
                    <span title={job.domain_id}>
                      {domainNames.get(job.domain_id) ?? `${job.domain_id.slice(0, 8)}…`}
                    </span>
                  )}
                </TableCell>
              ) : null}
              <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDateTime(job.create_time)}</TableCell>
              {onRetry ? (
                <TableCell>
                  {RETRYABLE.includes(job.state) ? (
                    <Button
                      size="small"
                      variant="outlined"
                      data-testid="job-retry"
                      loading={retryingId === job._id}
                      onClick={() => onRetry(job)}
                    >
                      {t("accounting.jobs.retry")}
                    </Button>
                  ) : null}
                </TableCell>
              ) : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
