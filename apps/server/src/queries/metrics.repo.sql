-- The SQL of src/modules/metrics/metrics.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- metricsRepo.countJobsAcrossDomains(now)
select
  "kind",
  "state",
  count(*)::int as "count",
  extract(
    epoch
    from
      (
        $1::timestamptz - min(run_at) filter (
          where
            state = 'queued'
            and run_at <= $2::timestamptz
        )
      )
  )::float8 as "oldest_due_seconds"
from
  "jobs"
group by
  "kind",
  "state";

-- metricsRepo.countDueJobsAcrossDomains(now)
select
  count(*)::int as "count"
from
  "jobs"
where
  "state" = $1
  and "run_at" <= $2;

-- metricsRepo.countDeliveriesAcrossDomains(since)
select
  coalesce(t.type, 'none') as "provider",
  "d"."state" as "state",
  count(*)::int as "count"
from
  "notification_deliveries" as "d"
  left join "notification_transports" as "t" on "t"."id" = "d"."transport_id"
where
  "d"."create_time" >= $1
group by
  coalesce(t.type, 'none'),
  "d"."state";

-- metricsRepo.countExecutionsAcrossDomains(since)
select
  "status",
  count(*)::int as "count"
from
  "command_executions"
where
  "create_time" >= $1
group by
  "status";
