import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useOffers } from "../../../app/session/useOffers";
import { clampPage, ListCard, pageCount, useListState } from "../../../components/list-card";
import { LoadMoreFooter } from "../../../components/list-card/LoadMoreFooter";
import { PageTitle } from "../../../components/PageTitle";
import { QueryState } from "../../../components/QueryState";
import { domainListQueryOptions } from "../domains/domains.queries";
import { JobsTable } from "./JobsTable";
import {
  JOB_STATE_CHOICES,
  type JobFilter,
  type JobStateChoice,
  jobsQueryOptions,
  useRetryJob,
} from "./jobs.queries";

const PREFIX = "accounting.jobs";

/**
 * /jobs: the durable jobs a person looks after. It opens on the failed and dead ones (ADR 007: a job
 * out of attempts waits for a person), filters by state and kind, and retries where the table allows.
 */
export function JobsPage() {
  const { t } = useTranslation();
  const offers = useOffers();
  const [state, update] = useListState(PREFIX);
  const [filter, setFilter] = useState<JobFilter>({ choice: "attention", kind: "" });
  const [kindDraft, setKindDraft] = useState("");
  const query = useInfiniteQuery(jobsQueryOptions(filter));
  const retry = useRetryJob();
  // Only those who see every domain get the domain column, named through the domain list they may read.
  const seesDomains = offers("domains.view");
  const domains = useQuery({ ...domainListQueryOptions(), enabled: seesDomains });
  const domainNames = useMemo(
    () => new Map((domains.data ?? []).map((domain) => [domain._id, domain.name])),
    [domains.data],
  );

  const rows = useMemo(() => query.data?.pages.flat() ?? [], [query.data]);
  const pages = pageCount(rows.length, state.pageSize);
  const page = clampPage(state.page, pages);
  const visible = rows.slice(page * state.pageSize, (page + 1) * state.pageSize);
  const isLastPage = page === pages - 1;

  const applyFilter = (next: Partial<JobFilter>) => {
    setFilter((previous) => ({ ...previous, ...next }));
    update({ page: 0 });
  };
  const commitKind = () => {
    if (kindDraft.trim() !== filter.kind) applyFilter({ kind: kindDraft.trim() });
  };

  return (
    <>
      <PageTitle>{t("routes.jobs")}</PageTitle>
      <ListCard
        title={t("accounting.jobs.title")}
        subtitle={query.data ? t("accounting.list.total", { count: rows.length }) : undefined}
        filters={
          <>
            <TextField
              select
              size="small"
              label={t("accounting.jobs.stateFilter")}
              value={filter.choice}
              onChange={(event) => applyFilter({ choice: event.target.value as JobStateChoice })}
              sx={{ minWidth: 200 }}
              slotProps={{ htmlInput: { "data-testid": "jobs-state-filter" } }}
            >
              {JOB_STATE_CHOICES.map((choice) => (
                <MenuItem key={choice} value={choice}>
                  {t(`accounting.jobs.choices.${choice}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              size="small"
              label={t("accounting.jobs.kindFilter")}
              placeholder="mail.send"
              value={kindDraft}
              onChange={(event) => setKindDraft(event.target.value)}
              onBlur={commitKind}
              onKeyDown={(event) => {
                if (event.key === "Enter") commitKind();
              }}
              helperText={t("accounting.jobs.kindHint")}
              sx={{ minWidth: 200 }}
            />
          </>
        }
        onReload={() => void query.refetch()}
        footer={
          rows.length > 0 ? (
            <LoadMoreFooter
              total={rows.length}
              page={page}
              pageSize={state.pageSize}
              update={update}
              query={query}
              isLastPage={isLastPage}
              loadMoreText={t("accounting.jobs.loadMore")}
              loadMoreTestId="jobs-load-more"
            />
          ) : undefined
        }
      >
        <QueryState
          query={query}
          isEmpty={() => rows.length === 0}
          emptyText={t(
            filter.choice === "attention" ? "accounting.jobs.emptyAttention" : "accounting.jobs.empty",
          )}
          isInset
        >
          {() => (
            <JobsTable
              jobs={visible}
              domainNames={seesDomains ? domainNames : undefined}
              onRetry={offers("jobs.retry") ? (job) => retry.mutate(job._id) : undefined}
              retryingId={retry.isPending ? retry.variables : null}
            />
          )}
        </QueryState>
      </ListCard>
    </>
  );
}
