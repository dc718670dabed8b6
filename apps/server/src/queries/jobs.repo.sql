-- The SQL of src/platform/jobs/jobs.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- jobsRepo.insertJob(domainId, job)
insert into
  "jobs" ("domain_id")
values
  ($1)
on conflict do nothing;

-- jobsRepo.claimDueJobsAcrossDomains(node, kinds, now, leaseMs, limit)
update "jobs"
set
  "state" = $1,
  "attempts" = "attempts" + $2,
  "locked_by" = $3,
  "locked_until" = $4
where
  "id" in (
    select
      "id"
    from
      "jobs"
    where
      "state" in ($5, $6)
      and "run_at" <= $7
      and "kind" in ($8)
    order by
      "run_at"
    limit
      $9
    for update
      skip locked
  )
  and "state" in ($10, $11)
returning
  *;

-- jobsRepo.findNextRunAtAcrossDomains(kinds, now)
select
  "run_at"
from
  "jobs"
where
  "state" in ($1, $2)
  and "run_at" > $3
  and "kind" in ($4)
order by
  "run_at"
limit
  $5;

-- jobsRepo.extendLeasesAcrossDomains(node, ids, until)
update "jobs"
set
  "locked_until" = $1
where
  "id" in ($2)
  and "locked_by" = $3
  and "state" = $4;

-- jobsRepo.finishJobAcrossDomains(node, id, at)
update "jobs"
set
  "state" = $1,
  "sealed" = $2,
  "locked_by" = $3,
  "locked_until" = $4,
  "finish_time" = $5
where
  "id" = $6
  and "locked_by" = $7
  and "state" = $8;

-- jobsRepo.failJobAcrossDomains(node, id, failure)
update "jobs"
set
  "run_at" = $1,
  "locked_by" = $2,
  "locked_until" = $3,
  "finish_time" = $4
where
  "id" = $5
  and "locked_by" = $6
  and "state" = $7;

-- jobsRepo.returnExpiredJobsAcrossDomains(now)
update "jobs"
set
  "state" = case
    when attempts >= max_attempts then 'dead'
    else 'failed'
  end,
  "finish_time" = case
    when attempts >= max_attempts then $1::timestamptz
  end,
  "run_at" = $2,
  "last_error" = $3,
  "locked_by" = $4,
  "locked_until" = $5
where
  "state" = $6
  and "locked_until" < $7;

-- jobsRepo.deleteDoneJobsAcrossDomains(before)
delete from "jobs"
where
  "state" = $1
  and "finish_time" < $2;

-- jobsRepo.findJobs(domainId, filter)
select
  *
from
  "jobs"
where
  "domain_id" = $1
order by
  "create_time" desc,
  "id" desc
limit
  $2
offset
  $3;

-- jobsRepo.findJobsAcrossDomains(filter)
select
  *
from
  "jobs"
order by
  "create_time" desc,
  "id" desc
limit
  $1
offset
  $2;

-- jobsRepo.requeueJob(domainId, id, now)
update "jobs"
set
  "state" = $1,
  "attempts" = $2,
  "run_at" = $3,
  "finish_time" = $4,
  "locked_by" = $5,
  "locked_until" = $6
where
  "id" = $7
  and "state" in ($8, $9)
  and "domain_id" = $10
returning
  *;

-- jobsRepo.requeueJobAcrossDomains(id, now)
update "jobs"
set
  "state" = $1,
  "attempts" = $2,
  "run_at" = $3,
  "finish_time" = $4,
  "locked_by" = $5,
  "locked_until" = $6
where
  "id" = $7
  and "state" in ($8, $9)
returning
  *;

-- jobsRepo.findJob(domainId, id)
select
  *
from
  "jobs"
where
  "domain_id" = $1
  and "id" = $2;

-- jobsRepo.findJobAcrossDomains(id)
select
  *
from
  "jobs"
where
  "id" = $1;
