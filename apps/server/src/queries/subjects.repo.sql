-- The SQL of src/modules/notifications/engine/subjects.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- subjectsRepo.findDevicesByIdsAcrossDomains(ids)
select
  "id",
  "domain_id",
  "ident",
  "tags",
  "last_contact",
  "last_status"
from
  "devices"
where
  "id" in ($1);

-- subjectsRepo.findEventsByIdsAcrossDomains(ids)
select
  "e"."id",
  "e"."domain_id",
  "e"."device_id",
  "e"."kind",
  "e"."level",
  "e"."message",
  "d"."ident",
  "d"."tags"
from
  "events" as "e"
  left join "devices" as "d" on "d"."id" = "e"."device_id"
where
  "e"."id" in ($1);

-- subjectsRepo.findUserAcrossDomains(id)
select
  "id",
  "domain_id",
  "username",
  "password_expire_date"
from
  "users"
where
  "id" = $1;

-- subjectsRepo.findSilentDevices(domainId, before)
select
  "id",
  "domain_id",
  "ident",
  "tags",
  "last_contact",
  "last_status"
from
  "devices"
where
  "domain_id" = $1
  and (
    (
      "connected" = $2
      and "connection_time" < $3
    )
    or (
      "connected" is null
      and "last_contact" < $4
    )
  );

-- subjectsRepo.findDevicesByIds(domainId, ids)
select
  "id",
  "domain_id",
  "ident",
  "tags",
  "last_contact",
  "last_status"
from
  "devices"
where
  "domain_id" = $1
  and "id" in ($2);

-- subjectsRepo.findDevicesWithSettings(domainId)
select
  "id",
  "domain_id",
  "ident",
  "tags",
  "last_contact",
  "last_status"
from
  "devices"
where
  "domain_id" = $1;
select
  "settings"
from
  "domains"
where
  "id" = $1;

-- subjectsRepo.findPasswordsExpiring(domainId, from, until)
select
  "id",
  "domain_id",
  "username",
  "password_expire_date"
from
  "users"
where
  "domain_id" = $1
  and "removed_at" is null
  and "password_expire_date" > $2
  and "password_expire_date" <= $3;
