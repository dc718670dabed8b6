import {
  type Job,
  JobRetryAnswerSchema,
  type JobState,
  JobsAnswerSchema,
  type JobsRequest,
} from "@cellfleet/contract";
import { infiniteQueryOptions, keepPreviousData, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../app/api/http";
import { pushInfoMessage } from "../../../app/messages/messageStore";
import { notice } from "../../../app/messages/texts";
import { accountingKeys } from "../keys";

/** Jobs asked for at a time; a full page means more may follow ('load more'). */
export const JOBS_PAGE_SIZE = 100;

/** The state choices of the screen: the ones a person acts on first (failed and dead), one state, or all. */
export const JOB_STATE_CHOICES = ["attention", "dead", "failed", "queued", "running", "done", "all"] as const;
/** One state choice of the screen. */
export type JobStateChoice = (typeof JOB_STATE_CHOICES)[number];

/** The filters of the jobs screen. */
export interface JobFilter {
  choice: JobStateChoice;
  kind: string;
}

/** The states a choice asks the server for; undefined asks for every state. */
export function statesOf(choice: JobStateChoice): JobState[] | undefined {
  if (choice === "all") return undefined;
  if (choice === "attention") return ["dead", "failed"];
  return [choice];
}

/** The request body of a filter, without paging. */
export function jobFilterBody(filter: JobFilter): Omit<JobsRequest, "limit" | "offset"> {
  const body: Omit<JobsRequest, "limit" | "offset"> = {};
  const states = statesOf(filter.choice);
  if (states) body.state = states;
  const kind = filter.kind.trim();
  if (kind) body.kind = [kind];
  return body;
}

/** POST /api/jobs/: one page of jobs, newest first. */
export async function getJobs(vars: Partial<JobsRequest>, signal?: AbortSignal): Promise<Job[]> {
  const answer = await apiRequest("POST /api/jobs/", { body: { ...vars }, schema: JobsAnswerSchema, signal });
  return answer.items;
}

/** The jobs of a filter in pages of JOBS_PAGE_SIZE. */
export function jobsQueryOptions(filter: JobFilter) {
  const body = jobFilterBody(filter);
  return infiniteQueryOptions({
    queryKey: accountingKeys.jobList(body),
    queryFn: ({ pageParam, signal }) =>
      getJobs({ ...body, limit: JOBS_PAGE_SIZE, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) =>
      last.length < JOBS_PAGE_SIZE ? undefined : pages.length * JOBS_PAGE_SIZE,
    placeholderData: keepPreviousData,
  });
}

/**
 * POST /api/job/{id}/retry: a failed or dead job queued again. Refusals are shown by their code
 * through the shared client; success says so and refreshes every jobs list.
 */
export function useRetryJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest("POST /api/job/{jobId}/retry", {
        params: { jobId: id },
        body: {},
        schema: JobRetryAnswerSchema,
      }),
    onSuccess: () => {
      pushInfoMessage({ level: "success", text: notice("success") });
      return queryClient.invalidateQueries({ queryKey: accountingKeys.jobs() });
    },
  });
}
