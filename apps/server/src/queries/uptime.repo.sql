-- The SQL of src/modules/uptime/uptime.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- uptimeRepo.findReportDevices(domainId, filter, createdBefore)
select
  "id",
  "ident",
  "description",
  "create_time",
  "last_contact"
from
  "devices"
where
  "domain_id" = $1
  and "create_time" < $2
  and "id" = $3
  and true
order by
  "ident";

-- uptimeRepo.findDomainName(domainId)
select
  "name"
from
  "domains"
where
  "id" = $1;

-- uptimeRepo.hasTag(domainId, tag, tagScope)
select
  "id"
from
  "devices"
where
  "domain_id" = $1
  and tags @> $2::jsonb
  and ("tags" ?| $3::text[])
limit
  $4;

-- uptimeRepo.findModemSlots(domainId, deviceIds)
select
  c.device_id,
  m ->> 'id' as modem,
  (m ->> 'sim')::int as slot
from
  device_collects c,
  jsonb_array_elements(c.data -> 'modems') as m
where
  c.domain_id = $1
  and c.device_id = any ($2::text[])
  and c.type = 'modems'
  and m ->> 'sim' is not null;
