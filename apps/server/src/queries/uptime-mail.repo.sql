-- The SQL of src/modules/uptime/uptime-mail.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- uptimeMailRepo.listRules(domainId)
select
  *
from
  "uptime_mail_rules"
where
  "domain_id" = $1
order by
  "create_time",
  "id";

-- uptimeMailRepo.findRule(domainId, id)
select
  *
from
  "uptime_mail_rules"
where
  "domain_id" = $1
  and "id" = $2;

-- uptimeMailRepo.lockRule(domainId, id)
select
  *
from
  "uptime_mail_rules"
where
  "domain_id" = $1
  and "id" = $2
for update;

-- uptimeMailRepo.insertRule(domainId, row)
insert into
  "uptime_mail_rules" ("domain_id")
values
  ($1);

-- uptimeMailRepo.updateRule(domainId, id, changes)
update "uptime_mail_rules"
set
where
  "domain_id" = $1
  and "id" = $2;

-- uptimeMailRepo.deleteRule(domainId, id)
delete from "uptime_mail_rules"
where
  "domain_id" = $1
  and "id" = $2;

-- uptimeMailRepo.findDueRulesAcrossDomains(now, limit)
select
  "id",
  "domain_id",
  "next_run"
from
  "uptime_mail_rules"
where
  "active" = $1
  and "next_run" <= $2
order by
  "next_run"
limit
  $3;
