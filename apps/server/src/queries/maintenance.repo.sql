-- The SQL of src/modules/insight/maintenance.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- maintenanceRepo.findDeviceIdsAcrossDomains(after, limit)
select
  "id"
from
  "devices"
where
  "id" > $1
order by
  "id"
limit
  $2;

-- maintenanceRepo.findRollupMark()
select
  "at"
from
  "history_marks"
where
  "name" = $1;

-- maintenanceRepo.setRollupMark(at)
insert into
  "history_marks" ("name", "at")
values
  ($1, $2)
on conflict ("name") do update
set
  "at" = $3;

-- maintenanceRepo.findOldestSampleAcrossDomains()
select
  min(time) as first
from
  signal_samples;

-- maintenanceRepo.rollUpHoursAcrossDomains(deviceIds, from, to)
insert into
  signal_rollups (
    device_id,
    modem,
    hour,
    rsrp_min,
    rsrp_max,
    rsrp_sum,
    rsrp_n,
    rsrq_min,
    rsrq_max,
    rsrq_sum,
    rsrq_n,
    sinr_min,
    sinr_max,
    sinr_sum,
    sinr_n,
    rssi_min,
    rssi_max,
    rssi_sum,
    rssi_n,
    csq_min,
    csq_max,
    csq_sum,
    csq_n
  )
select
  s.device_id,
  s.modem,
  to_timestamp(floor(date_part('epoch', s.time) / 3600) * 3600) as hour,
  min(rsrp),
  max(rsrp),
  sum(rsrp::float8),
  count(rsrp),
  min(rsrq),
  max(rsrq),
  sum(rsrq::float8),
  count(rsrq),
  min(sinr),
  max(sinr),
  sum(sinr::float8),
  count(sinr),
  min(rssi),
  max(rssi),
  sum(rssi::float8),
  count(rssi),
  min(csq),
  max(csq),
  sum(csq::float8),
  count(csq)
from
  signal_samples s
where
  s.device_id = any ($1::text[])
  and s.time >= $2
  and s.time < $3
group by
  s.device_id,
  s.modem,
  hour
on conflict (device_id, hour, modem) do update
set
  rsrp_min = excluded.rsrp_min,
  rsrp_max = excluded.rsrp_max,
  rsrp_sum = excluded.rsrp_sum,
  rsrp_n = excluded.rsrp_n,
  rsrq_min = excluded.rsrq_min,
  rsrq_max = excluded.rsrq_max,
  rsrq_sum = excluded.rsrq_sum,
  rsrq_n = excluded.rsrq_n,
  sinr_min = excluded.sinr_min,
  sinr_max = excluded.sinr_max,
  sinr_sum = excluded.sinr_sum,
  sinr_n = excluded.sinr_n,
  rssi_min = excluded.rssi_min,
  rssi_max = excluded.rssi_max,
  rssi_sum = excluded.rssi_sum,
  rssi_n = excluded.rssi_n,
  csq_min = excluded.csq_min,
  csq_max = excluded.csq_max,
  csq_sum = excluded.csq_sum,
  csq_n = excluded.csq_n;

-- maintenanceRepo.findDirtyHoursAcrossDomains(before, limit)
select
  "device_id",
  "hour"
from
  "signal_rollup_dirty"
where
  "hour" < $1
order by
  "device_id",
  "hour"
limit
  $2;

-- maintenanceRepo.rollUpDirtyHoursAcrossDomains(hours)
insert into
  signal_rollups (
    device_id,
    modem,
    hour,
    rsrp_min,
    rsrp_max,
    rsrp_sum,
    rsrp_n,
    rsrq_min,
    rsrq_max,
    rsrq_sum,
    rsrq_n,
    sinr_min,
    sinr_max,
    sinr_sum,
    sinr_n,
    rssi_min,
    rssi_max,
    rssi_sum,
    rssi_n,
    csq_min,
    csq_max,
    csq_sum,
    csq_n
  )
select
  s.device_id,
  s.modem,
  d.hour,
  min(rsrp),
  max(rsrp),
  sum(rsrp::float8),
  count(rsrp),
  min(rsrq),
  max(rsrq),
  sum(rsrq::float8),
  count(rsrq),
  min(sinr),
  max(sinr),
  sum(sinr::float8),
  count(sinr),
  min(rssi),
  max(rssi),
  sum(rssi::float8),
  count(rssi),
  min(csq),
  max(csq),
  sum(csq::float8),
  count(csq)
from
  unnest($1::text[], $2::timestamptz[]) as d (device_id, hour)
  join signal_samples s on s.device_id = d.device_id
  and s.time >= d.hour
  and s.time < d.hour + interval '1 hour'
group by
  s.device_id,
  s.modem,
  d.hour
on conflict (device_id, hour, modem) do update
set
  rsrp_min = excluded.rsrp_min,
  rsrp_max = excluded.rsrp_max,
  rsrp_sum = excluded.rsrp_sum,
  rsrp_n = excluded.rsrp_n,
  rsrq_min = excluded.rsrq_min,
  rsrq_max = excluded.rsrq_max,
  rsrq_sum = excluded.rsrq_sum,
  rsrq_n = excluded.rsrq_n,
  sinr_min = excluded.sinr_min,
  sinr_max = excluded.sinr_max,
  sinr_sum = excluded.sinr_sum,
  sinr_n = excluded.sinr_n,
  rssi_min = excluded.rssi_min,
  rssi_max = excluded.rssi_max,
  rssi_sum = excluded.rssi_sum,
  rssi_n = excluded.rssi_n,
  csq_min = excluded.csq_min,
  csq_max = excluded.csq_max,
  csq_sum = excluded.csq_sum,
  csq_n = excluded.csq_n;
delete from signal_rollup_dirty
where
  (device_id, hour) in (
    select
      *
    from
      unnest($1::text[], $2::timestamptz[])
  );

-- maintenanceRepo.deleteStaleDirtyHoursAcrossDomains(before)
delete from "signal_rollup_dirty"
where
  "hour" < $1;

-- maintenanceRepo.deleteOldHistoryAcrossDomains(deviceIds, cutoffs)
delete from signal_samples
where
  device_id = any ($1::text[])
  and time < $2;
delete from collect_history
where
  device_id = any ($1::text[])
  and create_time < $2;
delete from signal_rollups
where
  device_id = any ($1::text[])
  and hour < $2;
delete from device_outages
where
  device_id = any ($1::text[])
  and ended < $2;
delete from modem_changes
where
  device_id = any ($1::text[])
  and time < $2;
delete from sim_usage
where
  device_id = any ($1::text[])
  and day < $2::date;

-- maintenanceRepo.deleteOldRefusals(before)
delete from "gateway_refusals"
where
  "time" < $1;
