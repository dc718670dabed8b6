-- The SQL of src/modules/insight/usage.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- usageRepo.findDeviceIccids(domainId, deviceId, sinceDay)
select distinct
  "iccid"
from
  "sim_usage"
where
  "domain_id" = $1
  and "device_id" = $2
  and "day" >= $3;

-- usageRepo.findUsageDays(domainId, iccids, sinceDay, tagScope)
select
  "iccid",
  "day",
  "device_id",
  "modem",
  "slot",
  "rx",
  "tx",
  "seen"
from
  "sim_usage"
where
  "domain_id" = $1
  and "iccid" in ($2)
  and "day" >= $3
  and exists (
    select
      1
    from
      devices d
    where
      d.id = "sim_usage"."device_id"
      and d.domain_id = "sim_usage"."domain_id"
      and ("d"."tags" ?| $4::text[])
  )
order by
  "seen";

-- usageRepo.findSimCards(domainId, iccids)
select
  "iccid",
  "plan_bytes",
  "reset_day",
  "alerted_period",
  "alerted_percent"
from
  "sim_cards"
where
  "domain_id" = $1
  and "iccid" in ($2);

-- usageRepo.findUsageOfDevices(domainId, deviceIds, fromDay, toDay)
select
  "device_id",
  "iccid",
  sum("rx") as "rx",
  sum("tx") as "tx"
from
  "sim_usage"
where
  "domain_id" = $1
  and device_id = any ($2::text[])
  and "day" >= $3
  and "day" < $4
group by
  "device_id",
  "iccid"
order by
  "device_id",
  "iccid";

-- usageRepo.findPlannedIccids(domainId)
select
  "iccid"
from
  "sim_cards"
where
  "domain_id" = $1
  and "plan_bytes" is not null;

-- usageRepo.setSimPlan(domainId, iccid, plan)
insert into
  "sim_cards" (
    "domain_id",
    "iccid",
    "plan_bytes",
    "reset_day",
    "alerted_period",
    "alerted_percent"
  )
values
  ($1, $2, $3, $4, $5, $6)
on conflict ("domain_id", "iccid") do update
set
  "plan_bytes" = $7,
  "reset_day" = $8,
  "alerted_period" = $9,
  "alerted_percent" = $10;

-- usageRepo.recordAlert(domainId, iccid, period, percent)
insert into
  "sim_cards" (
    "domain_id",
    "iccid",
    "alerted_period",
    "alerted_percent"
  )
values
  ($1, $2, $3, $4)
on conflict ("domain_id", "iccid") do update
set
  "alerted_period" = $5,
  "alerted_percent" = $6;

-- usageRepo.findTagPlans(domainId)
select
  "tag",
  "plan_bytes",
  "reset_day"
from
  "tag_plans"
where
  "domain_id" = $1
order by
  "tag";

-- usageRepo.setTagPlan(domainId, tag, plan)
insert into
  "tag_plans" ("domain_id", "tag")
values
  ($1, $2)
on conflict ("domain_id", "tag") do update
set;

-- usageRepo.findLatestPlaces(domainId, sinceDay)
select distinct
  on (iccid) iccid,
  device_id
from
  sim_usage
where
  domain_id = $1
  and day >= $2::date
order by
  iccid,
  seen desc;

-- usageRepo.sumUsageSince(domainId, starts)
select
  u.iccid,
  sum(u.rx + u.tx)::text as total
from
  unnest($1::text[], $2::date[]) as p (iccid, start)
  join sim_usage u on u.domain_id = $3
  and u.iccid = p.iccid
  and u.day >= p.start
group by
  u.iccid;

-- usageRepo.findDevicesBrief(domainId, deviceIds)
select
  "id",
  "ident",
  "tags"
from
  "devices"
where
  "domain_id" = $1
  and "id" in ($2);

-- usageRepo.findDomainsWithPlansAcrossDomains()
select
  domain_id
from
  sim_cards
where
  plan_bytes is not null
union
select
  domain_id
from
  tag_plans;

-- usageRepo.insertDeviceEvent(domainId, event)
insert into
  "events" ("domain_id")
values
  ($1)
returning
  *;
-- (ended: Error: no result)
-- with a row answered to each query, also:
update "devices"
set
  "events_total" = "events_total" + $1
where
  "domain_id" = $2
  and "id" = $3;
