-- The SQL of src/modules/ingest/ingest.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- ingestRepo.findDeviceKeyAcrossDomains(ident)
select
  "aes_key"
from
  "devices"
where
  "ident" = $1;

-- ingestRepo.lockDevicesByIdentAcrossDomains(idents)
select
  "id",
  "domain_id",
  "ident",
  "last_contact",
  "last_seq",
  "seq_epoch",
  "seq_offset",
  "seq_prev_epoch",
  "seq_prev_offset"
from
  "devices"
where
  "ident" in ($1)
order by
  "id"
for update;

-- ingestRepo.findDevicesByIdentAcrossDomains(idents)
select
  "id",
  "domain_id",
  "ident",
  "last_contact",
  "last_seq",
  "seq_epoch",
  "seq_offset",
  "seq_prev_epoch",
  "seq_prev_offset"
from
  "devices"
where
  "ident" in ($1)
order by
  "id";

-- ingestRepo.updateSeqEpochsAcrossDomains(devices)
update "devices"
set
where
  "id" = $1;

-- ingestRepo.findHighestStoredSeqsAcrossDomains(deviceIds)
select
  "device_id",
  max("seq") as "seq"
from
  "device_collects"
where
  "device_id" in ($1)
group by
  "device_id";
select
  "device_id",
  max("seq") as "seq"
from
  "events"
where
  "device_id" in ($1)
group by
  "device_id";

-- ingestRepo.findCollectSeqsAcrossDomains(deviceIds)
select
  "device_id",
  "type",
  "seq"
from
  "device_collects"
where
  "device_id" in ($1);

-- ingestRepo.findCollectsAcrossDomains(deviceIds)
select
  "device_id",
  "type",
  "seq",
  "data"
from
  "device_collects"
where
  "device_id" in ($1);

-- ingestRepo.upsertCollectsAcrossDomains(rows)
insert into
  device_collects (
    device_id,
    domain_id,
    type,
    data,
    seq,
    create_time
  )
select
  *
from
  unnest(
    $1::text[],
    $2::text[],
    $3::text[],
    $4::jsonb[],
    $5::bigint[],
    $6::timestamptz[]
  )
on conflict (device_id, type) do update
set
  data = excluded.data,
  seq = excluded.seq,
  create_time = excluded.create_time
where
  device_collects.seq < excluded.seq;

-- ingestRepo.insertHistoryAcrossDomains(rows)
insert into
  collect_history (
    domain_id,
    device_id,
    type,
    seq,
    changes,
    create_time
  )
select
  *
from
  unnest(
    $1::text[],
    $2::text[],
    $3::text[],
    $4::bigint[],
    $5::jsonb[],
    $6::timestamptz[]
  )
on conflict (device_id, type, seq)
where
  seq is not null do nothing;

-- ingestRepo.findInactiveEventKindsAcrossDomains(domainIds)
select
  "domain_id",
  "kind"
from
  "event_types"
where
  "domain_id" in ($1)
  and "active" = $2;

-- ingestRepo.insertEventsAcrossDomains(rows)
insert into
  events (
    domain_id,
    device_id,
    seq,
    kind,
    level,
    message,
    details,
    device_time,
    create_time,
    is_read,
    is_quiet
  )
select
  *
from
  unnest(
    $1::text[],
    $2::text[],
    $3::bigint[],
    $4::text[],
    $5::text[],
    $6::text[],
    $7::jsonb[],
    $8::timestamptz[],
    $9::timestamptz[],
    $10::boolean[],
    $11::boolean[]
  )
on conflict (device_id, seq)
where
  seq is not null do nothing
returning
  *;

-- ingestRepo.touchDevicesAcrossDomains(touches, now, contactStaleBefore)
update devices as d
set
  last_contact = $1,
  last_seq = greatest(d.last_seq, v.seq),
  model = coalesce(v.model, d.model),
  firmware = coalesce(v.firmware, d.firmware),
  serial = coalesce(v.serial, d.serial),
  command_types = case
    when v.model is not null then v.command_types
    else d.command_types
  end,
  signal_csq = case
    when v.has_modems then v.signal_csq
    else d.signal_csq
  end,
  network_mode = case
    when v.has_modems then v.network_mode
    else d.network_mode
  end,
  wan_up = case
    when v.has_modems then v.wan_up
    else d.wan_up
  end,
  events_total = d.events_total + v.events_added,
  -- A GPS fix places the router unless an admin pinned it (ADR 045).
  latitude = case
    when v.latitude is not null
    and d.position_source is distinct from 'admin' then v.latitude
    else d.latitude
  end,
  longitude = case
    when v.latitude is not null
    and d.position_source is distinct from 'admin' then v.longitude
    else d.longitude
  end,
  position_source = case
    when v.latitude is not null
    and d.position_source is distinct from 'admin' then 'gps'
    else d.position_source
  end
from
  (
    select
      u.*,
      u.events_sent as events_added
    from
      unnest(
        $2::text[],
        $3::bigint[],
        $4::text[],
        $5::text[],
        $6::text[],
        $7::boolean[],
        $8::smallint[],
        $9::text[],
        $10::boolean[],
        $11::integer[],
        $12::text[],
        $13::double precision[],
        $14::double precision[]
      ) as u (
        id,
        seq,
        model,
        firmware,
        serial,
        has_modems,
        signal_csq,
        network_mode,
        wan_up,
        events_sent,
        command_types,
        latitude,
        longitude
      )
  ) as v
where
  d.id = v.id
  and (
    -- Only rows that visibly change: a stale contact time, new events, board data or facets.
    d.last_contact is null
    or d.last_contact < $15
    or v.events_added > 0
    or (
      v.model is not null
      and (v.model, v.firmware, v.serial, v.command_types) is distinct from (d.model, d.firmware, d.serial, d.command_types)
    )
    or (
      v.has_modems
      and (v.signal_csq, v.network_mode, v.wan_up) is distinct from (d.signal_csq, d.network_mode, d.wan_up)
    )
    or (
      v.latitude is not null
      and d.position_source is distinct from 'admin'
      and (v.latitude, v.longitude, 'gps') is distinct from (d.latitude, d.longitude, d.position_source)
    )
  )
returning
  d.*;

-- ingestRepo.findDomainSettingsAcrossDomains(domainIds)
select
  "id",
  "settings"
from
  "domains"
where
  "id" in ($1);
