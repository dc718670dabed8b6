-- The SQL of src/modules/devices/devices-list.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- devicesListRepo.countDevicesByFilter(domainId, filter)
select
  count(*) as "count"
from
  "devices"
  left join "device_event_reads" as "viewer_reads" on "viewer_reads"."device_id" = "devices"."id"
  and "viewer_reads"."user_id" = $1
where
  (
    "devices"."domain_id" = $2
    and ("devices"."tags" ?| $3::text[])
  );
-- (ended: Error: no result)

-- devicesListRepo.findDeviceLinesByFilter(domainId, filter, sort, page, contactRanges)
select
  '{"_id":' || coalesce(to_json(devices.id)::text, 'null') || ',"ident":' || coalesce(to_json(devices.ident)::text, 'null') || ',"description":' || coalesce(to_json(devices.description)::text, 'null') || ',"tags":' || case
    when jsonb_typeof(devices.tags) = 'array' then devices.tags::text
    else '[]'
  end || ',"board":{"model":' || coalesce(to_json(devices.model)::text, 'null') || '},"firmware":' || coalesce(to_json(devices.firmware)::text, 'null') || ',"serial":' || coalesce(to_json(devices.serial)::text, 'null') || ',"time":' || coalesce(
    floor(
      extract(
        epoch
        from
          devices.last_contact
      ) * 1000
    )::bigint::text,
    'null'
  ) || ',"status":"' || case
    when (
      "devices"."last_contact" is not null
      and "devices"."last_contact" >= $1
    ) then $2
    when (
      "devices"."last_contact" is not null
      and "devices"."last_contact" >= $3
    ) then $4
    when (
      "devices"."last_contact" is not null
      and "devices"."last_contact" >= $5
    ) then $6
    when (
      "devices"."last_contact" is not null
      and "devices"."last_contact" >= $7
    ) then $8
    else 'critical'
  end || '","events":' || (
    case
      when devices.events_total = 0 then 0
      else devices.events_total - coalesce(
        (
          select
            r.read_count
          from
            device_event_reads r
          where
            r.user_id = $9
            and r.device_id = devices.id
        ),
        0
      )
    end
  )::text || ',"signal":{"csq":' || coalesce(devices.signal_csq::text, 'null') || ',"quality":"' || case
    when devices.signal_csq between 0 and 9 then 'cellEdge'
    when devices.signal_csq between 10 and 14 then 'midCell'
    when devices.signal_csq between 15 and 19 then 'normal'
    when devices.signal_csq between 20 and 31 then 'excellent'
    else 'unknown'
  end || '"},"network_mode":' || coalesce(to_json(devices.network_mode)::text, 'null') || ',"wan_up":' || coalesce(devices.wan_up::text, 'null') || ',"has_backups":' || devices.has_backups::text || ',"has_journals":' || devices.has_journals::text || ',"has_key":' || (coalesce(devices.aes_key, '') <> '')::text || ',"connected":' || coalesce(devices.connected::text, 'null') || ',"connection_time":' || coalesce(
    floor(
      extract(
        epoch
        from
          devices.connection_time
      ) * 1000
    )::bigint::text,
    'null'
  ) || ',"create_time":' || coalesce(
    floor(
      extract(
        epoch
        from
          devices.create_time
      ) * 1000
    )::bigint::text,
    'null'
  ) || ',"position":' || case
    when devices.latitude is null
    or devices.longitude is null then 'null'
    else '{"latitude":' || devices.latitude::text || ',"longitude":' || devices.longitude::text || ',"source":"' || coalesce(devices.position_source, 'admin') || '"}'
  end || ',"meta":' || coalesce(devices.meta, '{}'::jsonb)::text || '}' as line
from
  (
    (
      select
        "devices".*
      from
        "devices"
        left join "device_event_reads" as "viewer_reads" on "viewer_reads"."device_id" = "devices"."id"
        and "viewer_reads"."user_id" = $10
      where
        (
          "devices"."domain_id" = $11
          and ("devices"."tags" ?| $12::text[])
        )
      order by
        "devices"."ident" asc
      limit
        $13
      offset
        $14
    )
  ) as devices
order by
  "devices"."ident" asc;

-- devicesListRepo.findSharedDeviceLinesByFilter(domainId, filter, sort, page, contactRanges)
select
  devices.id,
  devices.events_total,
  '{"_id":' || coalesce(to_json(devices.id)::text, 'null') || ',"ident":' || coalesce(to_json(devices.ident)::text, 'null') || ',"description":' || coalesce(to_json(devices.description)::text, 'null') || ',"tags":' || case
    when jsonb_typeof(devices.tags) = 'array' then devices.tags::text
    else '[]'
  end || ',"board":{"model":' || coalesce(to_json(devices.model)::text, 'null') || '},"firmware":' || coalesce(to_json(devices.firmware)::text, 'null') || ',"serial":' || coalesce(to_json(devices.serial)::text, 'null') || ',"time":' || coalesce(
    floor(
      extract(
        epoch
        from
          devices.last_contact
      ) * 1000
    )::bigint::text,
    'null'
  ) || ',"status":"' || case
    when (
      "devices"."last_contact" is not null
      and "devices"."last_contact" >= $1
    ) then $2
    when (
      "devices"."last_contact" is not null
      and "devices"."last_contact" >= $3
    ) then $4
    when (
      "devices"."last_contact" is not null
      and "devices"."last_contact" >= $5
    ) then $6
    when (
      "devices"."last_contact" is not null
      and "devices"."last_contact" >= $7
    ) then $8
    else 'critical'
  end || '","events":' as head,
  ',"signal":{"csq":' || coalesce(devices.signal_csq::text, 'null') || ',"quality":"' || case
    when devices.signal_csq between 0 and 9 then 'cellEdge'
    when devices.signal_csq between 10 and 14 then 'midCell'
    when devices.signal_csq between 15 and 19 then 'normal'
    when devices.signal_csq between 20 and 31 then 'excellent'
    else 'unknown'
  end || '"},"network_mode":' || coalesce(to_json(devices.network_mode)::text, 'null') || ',"wan_up":' || coalesce(devices.wan_up::text, 'null') || ',"has_backups":' || devices.has_backups::text || ',"has_journals":' || devices.has_journals::text || ',"has_key":' || (coalesce(devices.aes_key, '') <> '')::text || ',"connected":' || coalesce(devices.connected::text, 'null') || ',"connection_time":' || coalesce(
    floor(
      extract(
        epoch
        from
          devices.connection_time
      ) * 1000
    )::bigint::text,
    'null'
  ) || ',"create_time":' || coalesce(
    floor(
      extract(
        epoch
        from
          devices.create_time
      ) * 1000
    )::bigint::text,
    'null'
  ) || ',"position":' || case
    when devices.latitude is null
    or devices.longitude is null then 'null'
    else '{"latitude":' || devices.latitude::text || ',"longitude":' || devices.longitude::text || ',"source":"' || coalesce(devices.position_source, 'admin') || '"}'
  end || ',"meta":' || coalesce(devices.meta, '{}'::jsonb)::text || '}' as tail
from
  (
    (
      select
        "devices".*
      from
        "devices"
        left join "device_event_reads" as "viewer_reads" on "viewer_reads"."device_id" = "devices"."id"
        and "viewer_reads"."user_id" = $9
      where
        (
          "devices"."domain_id" = $10
          and ("devices"."tags" ?| $11::text[])
        )
      order by
        "devices"."ident" asc
      limit
        $12
      offset
        $13
    )
  ) as devices
order by
  "devices"."ident" asc;

-- devicesListRepo.findViewerReadCounts(domainId, deviceIds)
select
  r.device_id,
  r.read_count
from
  device_event_reads r
  join devices on devices.id = r.device_id
  and devices.domain_id = $1
where
  r.user_id = $2
  and r.device_id = any ($3::text[]);

-- devicesListRepo.findDevicesByFilterAfter(domainId, filter, afterIdent, limit)
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
    devices.events_total - coalesce(viewer_reads.read_count, 0)
  ) as "events_unread"
from
  "devices"
  left join "device_event_reads" as "viewer_reads" on "viewer_reads"."device_id" = "devices"."id"
  and "viewer_reads"."user_id" = $1
where
  (
    "devices"."domain_id" = $2
    and ("devices"."tags" ?| $3::text[])
  )
  and "devices"."ident" > $4
order by
  "devices"."ident"
limit
  $5;

-- devicesListRepo.countFacetsByFilter(domainId, filter, contactRanges, csqRanges, topN)
select
  grouping(
    devices.model,
    devices.firmware,
    devices.network_mode
  ) as "grouping_set",
  "devices"."model" as "model",
  "devices"."firmware" as "firmware",
  "devices"."network_mode" as "network_mode",
  count(*) as "total",
  count(*) filter (
    where
      "devices"."has_backups" = $1
  ) as "backups",
  count(*) filter (
    where
      "devices"."has_journals" = $2
  ) as "journals",
  count(*) filter (
    where
      (
        devices.events_total - coalesce(viewer_reads.read_count, 0)
      ) > 0
  ) as "events",
  count(*) filter (
    where
      (
        "devices"."last_contact" is not null
        and "devices"."last_contact" >= $3
        and "devices"."last_contact" < $4
      )
  ) as "contact_0",
  count(*) filter (
    where
      "devices"."signal_csq" between $5 and $6
  ) as "csq_0"
from
  "devices"
  left join "device_event_reads" as "viewer_reads" on "viewer_reads"."device_id" = "devices"."id"
  and "viewer_reads"."user_id" = $7
where
  (
    "devices"."domain_id" = $8
    and ("devices"."tags" ?| $9::text[])
  )
group by
  grouping sets (
    (devices.model),
    (devices.firmware),
    (devices.network_mode),
    ()
  );
select
  t.value as "value",
  count(*) as "count"
from
  (
    select
      "devices"."tags"
    from
      "devices"
      left join "device_event_reads" as "viewer_reads" on "viewer_reads"."device_id" = "devices"."id"
      and "viewer_reads"."user_id" = $1
    where
      (
        "devices"."domain_id" = $2
        and ("devices"."tags" ?| $3::text[])
      )
  ) as "d"
  inner join jsonb_array_elements_text(d.tags) as "t" on true
group by
  t.value
order by
  "count" desc,
  t.value
limit
  $4;
select
  "files"."file_type" as "value",
  count(distinct "files"."device_id") as "count"
from
  "files"
where
  "files"."domain_id" = $1
  and "files"."device_id" in (
    select
      "devices"."id"
    from
      "devices"
      left join "device_event_reads" as "viewer_reads" on "viewer_reads"."device_id" = "devices"."id"
      and "viewer_reads"."user_id" = $2
    where
      (
        "devices"."domain_id" = $3
        and ("devices"."tags" ?| $4::text[])
      )
  )
group by
  "files"."file_type"
order by
  "count" desc,
  "files"."file_type";

-- devicesListRepo.countFileTypesByFilter(domainId, filter)
select
  "files"."file_type" as "value",
  count(distinct "files"."device_id") as "count"
from
  "files"
where
  "files"."domain_id" = $1
  and "files"."device_id" in (
    select
      "devices"."id"
    from
      "devices"
      left join "device_event_reads" as "viewer_reads" on "viewer_reads"."device_id" = "devices"."id"
      and "viewer_reads"."user_id" = $2
    where
      (
        "devices"."domain_id" = $3
        and ("devices"."tags" ?| $4::text[])
      )
  )
group by
  "files"."file_type"
order by
  "count" desc,
  "files"."file_type";

-- devicesListRepo.countTagsByFilter(domainId, filter, limit)
select
  t.value as "value",
  count(*) as "count"
from
  (
    select
      "devices"."tags"
    from
      "devices"
      left join "device_event_reads" as "viewer_reads" on "viewer_reads"."device_id" = "devices"."id"
      and "viewer_reads"."user_id" = $1
    where
      (
        "devices"."domain_id" = $2
        and ("devices"."tags" ?| $3::text[])
      )
  ) as "d"
  inner join jsonb_array_elements_text(d.tags) as "t" on true
group by
  t.value
order by
  "count" desc,
  t.value
limit
  $4;

-- devicesListRepo.countByContactRanges(domainId, contactRanges)
select
  count(*) filter (
    where
      (
        "devices"."last_contact" is not null
        and "devices"."last_contact" >= $1
        and "devices"."last_contact" < $2
      )
  ) as "0"
from
  "devices"
  left join "device_event_reads" as "viewer_reads" on "viewer_reads"."device_id" = "devices"."id"
  and "viewer_reads"."user_id" = $3
where
  (
    "devices"."domain_id" = $4
    and ("devices"."tags" ?| $5::text[])
  );
-- (ended: Error: no result)
