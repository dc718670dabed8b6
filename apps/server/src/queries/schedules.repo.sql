-- The SQL of src/modules/schedules/schedules.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- schedulesRepo.listRules(domainId)
select
  *
from
  "schedule_rules"
where
  "domain_id" = $1
order by
  "type",
  "create_time",
  "id";

-- schedulesRepo.findRule(domainId, type, id)
select
  *
from
  "schedule_rules"
where
  "domain_id" = $1
  and "type" = $2
  and "id" = $3;

-- schedulesRepo.listActiveRuleIds(domainId)
select
  "id"
from
  "schedule_rules"
where
  "domain_id" = $1
  and "active" = $2
order by
  "id";

-- schedulesRepo.lockRule(domainId, id)
select
  *
from
  "schedule_rules"
where
  "domain_id" = $1
  and "id" = $2
for update;

-- schedulesRepo.insertRule(domainId, row)
insert into
  "schedule_rules" ("domain_id")
values
  ($1);

-- schedulesRepo.updateRule(domainId, id, changes)
update "schedule_rules"
set
where
  "domain_id" = $1
  and "id" = $2;

-- schedulesRepo.findDueRulesAcrossDomains(now, limit)
select
  "id",
  "domain_id",
  "next_run"
from
  "schedule_rules"
where
  "active" = $1
  and "next_run" <= $2
order by
  "next_run"
limit
  $3;
