-- The SQL of src/modules/devices/devices.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- devicesRepo.findDomainFleetSettings(domainId)
select
  "settings",
  "device_limit"
from
  "domains"
where
  "id" = $1;

-- devicesRepo.lockDomainForDeviceCount(domainId)
select
  "device_limit"
from
  "domains"
where
  "id" = $1
for update;

-- devicesRepo.countDevices(domainId)
select
  count(*) as "count"
from
  "devices"
where
  "domain_id" = $1;
-- (ended: Error: no result)

-- devicesRepo.countDevicesWithinTagScope(domainId, deviceIds, tagScope)
select
  count(*) as "count"
from
  "devices"
where
  "domain_id" = $1
  and "id" in ($2)
  and ("tags" ?| $3::text[]);
-- (ended: Error: no result)

-- devicesRepo.findDeviceIdsWithinTagScope(domainId, tagScope)
select
  "id"
from
  "devices"
where
  "domain_id" = $1
  and ("tags" ?| $2::text[]);

-- devicesRepo.findDevice(domainId, deviceId)
select
  "devices"."id",
  "devices"."domain_id",
  "devices"."ident",
  "devices"."description",
  "devices"."tags",
  "devices"."model",
  "devices"."firmware",
  "devices"."serial",
  "devices"."last_contact",
  "devices"."signal_csq",
  "devices"."network_mode",
  "devices"."wan_up",
  "devices"."connected",
  "devices"."connection_time",
  "devices"."has_backups",
  "devices"."has_journals",
  "devices"."meta",
  "devices"."create_time",
  "devices"."latitude",
  "devices"."longitude",
  "devices"."position_source",
  coalesce(devices.aes_key, '') <> '' as "has_key"
from
  "devices"
where
  "devices"."domain_id" = $1
  and "devices"."id" = $2;

-- devicesRepo.findDeviceForViewer(domainId, deviceId, viewerId)
select
  "devices"."id",
  "devices"."domain_id",
  "devices"."ident",
  "devices"."description",
  "devices"."tags",
  "devices"."model",
  "devices"."firmware",
  "devices"."serial",
  "devices"."last_contact",
  "devices"."signal_csq",
  "devices"."network_mode",
  "devices"."wan_up",
  "devices"."connected",
  "devices"."connection_time",
  "devices"."has_backups",
  "devices"."has_journals",
  "devices"."meta",
  "devices"."create_time",
  "devices"."latitude",
  "devices"."longitude",
  "devices"."position_source",
  coalesce(devices.aes_key, '') <> '' as "has_key",
  (
    case
      when devices.events_total = 0 then 0
      else devices.events_total - coalesce(
        (
          select
            r.read_count
          from
            device_event_reads r
          where
            r.user_id = $1
            and r.device_id = devices.id
        ),
        0
      )
    end
  ) as "events_unread"
from
  "devices"
where
  "devices"."domain_id" = $2
  and "devices"."id" = $3;

-- devicesRepo.findDevicesByIds(domainId, deviceIds)
select
  "devices"."id",
  "devices"."domain_id",
  "devices"."ident",
  "devices"."description",
  "devices"."tags",
  "devices"."model",
  "devices"."firmware",
  "devices"."serial",
  "devices"."last_contact",
  "devices"."signal_csq",
  "devices"."network_mode",
  "devices"."wan_up",
  "devices"."connected",
  "devices"."connection_time",
  "devices"."has_backups",
  "devices"."has_journals",
  "devices"."meta",
  "devices"."create_time",
  "devices"."latitude",
  "devices"."longitude",
  "devices"."position_source",
  coalesce(devices.aes_key, '') <> '' as "has_key"
from
  "devices"
where
  "devices"."domain_id" = $1
  and "devices"."id" in ($2)
order by
  "devices"."ident";

-- devicesRepo.findTakenIdentsAcrossDomains(idents)
select
  "ident"
from
  "devices"
where
  "ident" in ($1);

-- devicesRepo.insertDevices(domainId, devices)
insert into
  "devices" ("domain_id")
values
  ($1)
on conflict ("ident") do nothing
returning
  "id";

-- devicesRepo.findImportTargets(domainId, idents)
select
  "id",
  "ident",
  "description",
  "tags",
  "latitude",
  "longitude",
  md5(coalesce(aes_key, '')) as "key_md5"
from
  "devices"
where
  "domain_id" = $1
  and "ident" in ($2);

-- devicesRepo.updateImportedDevices(domainId, changes)
update devices
set
  description = coalesce(x.description, devices.description),
  tags = coalesce(x.tags, devices.tags),
  aes_key = coalesce(x.aes_key, devices.aes_key),
  latitude = coalesce(x.latitude, devices.latitude),
  longitude = coalesce(x.longitude, devices.longitude),
  position_source = case
    when x.latitude is null then devices.position_source
    else 'admin'
  end
from
  jsonb_to_recordset($1::jsonb) as x (
    id text,
    description text,
    tags jsonb,
    aes_key text,
    latitude double precision,
    longitude double precision
  )
where
  devices.domain_id = $2
  and devices.id = x.id;

-- devicesRepo.updateDevice(domainId, deviceId, changes)
select
  "devices"."id",
  "devices"."domain_id",
  "devices"."ident",
  "devices"."description",
  "devices"."tags",
  "devices"."model",
  "devices"."firmware",
  "devices"."serial",
  "devices"."last_contact",
  "devices"."signal_csq",
  "devices"."network_mode",
  "devices"."wan_up",
  "devices"."connected",
  "devices"."connection_time",
  "devices"."has_backups",
  "devices"."has_journals",
  "devices"."meta",
  "devices"."create_time",
  "devices"."latitude",
  "devices"."longitude",
  "devices"."position_source",
  coalesce(devices.aes_key, '') <> '' as "has_key"
from
  "devices"
where
  "devices"."domain_id" = $1
  and "devices"."id" = $2;

-- devicesRepo.addTags(domainId, deviceIds, tags)
update "devices"
set
  "tags" = (
    select
      coalesce(
        jsonb_agg(
          tag
          order by
            first_at
        ),
        '[]'::jsonb
      )
    from
      (
        select
          tag,
          min(at) as first_at
        from
          jsonb_array_elements_text(devices.tags || $1::jsonb) with ordinality as t (tag, at)
        group by
          tag
      ) merged
  )
where
  "domain_id" = $2
  and "id" in ($3);

-- devicesRepo.removeTags(domainId, deviceIds, tags)
update "devices"
set
  "tags" = (
    select
      coalesce(
        jsonb_agg(
          tag
          order by
            at
        ),
        '[]'::jsonb
      )
    from
      jsonb_array_elements_text(devices.tags) with ordinality as t (tag, at)
    where
      not jsonb_exists ($1::jsonb, tag)
  )
where
  "domain_id" = $2
  and "id" in ($3);

-- devicesRepo.deleteDevices(domainId, deviceIds)
delete from "devices"
where
  "domain_id" = $1
  and "id" in ($2);

-- devicesRepo.findCollects(domainId, deviceId)
select
  *
from
  "device_collects"
where
  "domain_id" = $1
  and "device_id" = $2;
