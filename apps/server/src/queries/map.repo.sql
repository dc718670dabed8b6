-- The SQL of src/modules/map/map.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- mapRepo.findMapRowsByFilter(domainId, filter)
select
  "devices"."id",
  "devices"."ident",
  "devices"."latitude",
  "devices"."longitude",
  (
    extract(
      epoch
      from
        devices.last_contact
    ) * 1000
  )::float8 as "last_contact_ms"
from
  "devices"
  left join "device_event_reads" as "viewer_reads" on "viewer_reads"."device_id" = "devices"."id"
  and "viewer_reads"."user_id" = $1
where
  (
    "devices"."domain_id" = $2
    and ("devices"."tags" ?| $3::text[])
  );
