-- The SQL of src/modules/firmware/firmware.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- firmwareRepo.findDevicesOfModels(domainId, models)
select
  "id",
  "ident",
  "tags",
  "model",
  "firmware"
from
  "devices"
where
  "domain_id" = $1
  and "model" in ($2)
  and "firmware" is not null;

-- firmwareRepo.findRolloutCandidatesAcrossDomains(models, domainIds)
select
  "d"."id",
  "d"."ident",
  "d"."domain_id",
  "dm"."name" as "domain_name",
  "dm"."settings" as "domain_settings",
  "d"."model",
  "d"."firmware",
  "d"."signal_csq",
  "c"."data" as "modems",
  "d"."connected"
from
  "devices" as "d"
  inner join "domains" as "dm" on "dm"."id" = "d"."domain_id"
  left join "device_collects" as "c" on "c"."device_id" = "d"."id"
  and "c"."type" = $1
where
  "d"."model" in ($2)
  and "d"."domain_id" in ($3);

-- firmwareRepo.listRules()
select
  *
from
  "software_rules"
order by
  "update_time" desc
limit
  $1;

-- firmwareRepo.listRulesAfter(after, limit)
select
  *
from
  "software_rules" as "r"
where
  (
    r.create_time > (
      select
        k.create_time
      from
        software_rules k
      where
        k.id = $1
    )
    or (
      r.create_time = (
        select
          k.create_time
        from
          software_rules k
        where
          k.id = $2
      )
      and r.id > $3
    )
  )
order by
  "r"."create_time",
  "r"."id"
limit
  $4;

-- firmwareRepo.findRule(id)
select
  *
from
  "software_rules"
where
  "id" = $1;

-- firmwareRepo.lockRule(id)
select
  *
from
  "software_rules"
where
  "id" = $1
for update;

-- firmwareRepo.insertRule(row)
insert into
  "software_rules" ()
values
  ();

-- firmwareRepo.updateRule(id, change)
update "software_rules"
set
where
  "id" = $1;

-- firmwareRepo.setFetchStatus(id, generation, change)
update "software_rules"
set
where
  "id" = $1
  and "fetch_generation" = $2;

-- firmwareRepo.setFetchedFile(id, generation, file)
update "software_rules"
set
  "error" = $1
where
  "id" = $2
  and "fetch_generation" = $3;

-- firmwareRepo.listReadyRules()
select
  *
from
  "software_rules"
where
  "status" = $1
  and "file_key" is not null
order by
  "sync_time" desc;

-- firmwareRepo.deleteRule(id)
delete from "software_rules"
where
  "id" = $1;
