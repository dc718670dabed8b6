-- The SQL of src/modules/zerotouch/zerotouch.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- zeroTouchRepo.listConfigs(domainId)
select
  "c".*,
  "s"."name" as "template_name"
from
  "zero_touch_configs" as "c"
  left join "scripts" as "s" on "s"."id" = "c"."template_id"
  and "s"."domain_id" = "c"."domain_id"
  and "s"."deleted" = $1
where
  "c"."domain_id" = $2
order by
  "c"."name";

-- zeroTouchRepo.findConfig(domainId, id)
select
  "c".*,
  "s"."name" as "template_name"
from
  "zero_touch_configs" as "c"
  left join "scripts" as "s" on "s"."id" = "c"."template_id"
  and "s"."domain_id" = "c"."domain_id"
  and "s"."deleted" = $1
where
  "c"."domain_id" = $2
  and "c"."id" = $3;

-- zeroTouchRepo.findConfigByKeyIdAcrossDomains(keyId)
select
  "c".*,
  "s"."name" as "template_name"
from
  "zero_touch_configs" as "c"
  left join "scripts" as "s" on "s"."id" = "c"."template_id"
  and "s"."domain_id" = "c"."domain_id"
  and "s"."deleted" = $1
where
  "c"."key_id" = $2;

-- zeroTouchRepo.insertConfig(domainId, row)
insert into
  "zero_touch_configs" ("domain_id")
values
  ($1);

-- zeroTouchRepo.updateConfig(domainId, id, changes)
update "zero_touch_configs"
set
where
  "domain_id" = $1
  and "id" = $2;

-- zeroTouchRepo.deleteConfig(domainId, id)
delete from "zero_touch_configs"
where
  "domain_id" = $1
  and "id" = $2;

-- zeroTouchRepo.countJoined(domainId, id)
update "zero_touch_configs"
set
  "joined" = "joined" + $1
where
  "domain_id" = $2
  and "id" = $3;

-- zeroTouchRepo.listAdoptions(domainId, status)
select
  "a".*,
  "c"."name" as "config_name"
from
  "zero_touch_adoptions" as "a"
  left join "zero_touch_configs" as "c" on "c"."id" = "a"."config_id"
where
  "a"."domain_id" = $1
  and "a"."status" = $2
order by
  "a"."last_seen" desc
limit
  $3;

-- zeroTouchRepo.findAdoption(domainId, id)
select
  "a".*,
  "c"."name" as "config_name"
from
  "zero_touch_adoptions" as "a"
  left join "zero_touch_configs" as "c" on "c"."id" = "a"."config_id"
where
  "a"."domain_id" = $1
  and "a"."id" = $2;

-- zeroTouchRepo.lockAdoption(domainId, id)
select
  *
from
  "zero_touch_adoptions"
where
  "domain_id" = $1
  and "id" = $2
for update;

-- zeroTouchRepo.findAdoptionByIdentAcrossDomains(ident)
select
  *
from
  "zero_touch_adoptions"
where
  "ident" = $1;

-- zeroTouchRepo.recordAttempt(domainId, row)
insert into
  "zero_touch_adoptions" ("domain_id")
values
  ($1)
on conflict ("ident") do update
set
  "attempts" = "zero_touch_adoptions"."attempts" + $2,
  "last_seen" = "excluded"."last_seen",
  "address" = "excluded"."address",
  "model" = "excluded"."model",
  "serial" = "excluded"."serial",
  "imei" = "excluded"."imei";

-- zeroTouchRepo.decideAdoption(domainId, id, changes)
update "zero_touch_adoptions"
set
where
  "domain_id" = $1
  and "id" = $2;

-- zeroTouchRepo.findDeviceByIdentAcrossDomains(ident)
select
  "id",
  "domain_id",
  "aes_key"
from
  "devices"
where
  "ident" = $1;
