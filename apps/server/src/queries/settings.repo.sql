-- The SQL of src/modules/settings/settings.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- settingsRepo.findSettings(domainId)
select
  "settings",
  "time_zone"
from
  "domains"
where
  "id" = $1;

-- settingsRepo.findTimeZone(domainId)
select
  "time_zone"
from
  "domains"
where
  "id" = $1;

-- settingsRepo.saveSettings(domainId, settings)
update "domains"
set
  "settings" = $1
where
  "id" = $2;

-- settingsRepo.findEventTypeSwitches(domainId)
select
  "kind",
  "active"
from
  "event_types"
where
  "domain_id" = $1;

-- settingsRepo.saveEventTypeActive(domainId, kind, active, now)
insert into
  "event_types" ("domain_id", "kind", "active", "update_time")
values
  ($1, $2, $3, $4)
on conflict ("domain_id", "kind") do update
set
  "active" = $5,
  "update_time" = $6;
