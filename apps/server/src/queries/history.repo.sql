-- The SQL of src/modules/insight/history.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- historyRepo.findDeviceContact(domainId, deviceId)
select
  "id",
  "last_contact"
from
  "devices"
where
  "domain_id" = $1
  and "id" = $2;

-- historyRepo.findSignalBuckets(domainId, deviceId, q)
select
  modem,
  bucket * $1::float8 as bucket,
  min(rsrp_min) as rsrp_min,
  max(rsrp_max) as rsrp_max,
  sum(rsrp_sum) / nullif(sum(rsrp_n), 0) as rsrp_mean,
  min(rsrq_min) as rsrq_min,
  max(rsrq_max) as rsrq_max,
  sum(rsrq_sum) / nullif(sum(rsrq_n), 0) as rsrq_mean,
  min(sinr_min) as sinr_min,
  max(sinr_max) as sinr_max,
  sum(sinr_sum) / nullif(sum(sinr_n), 0) as sinr_mean,
  min(rssi_min) as rssi_min,
  max(rssi_max) as rssi_max,
  sum(rssi_sum) / nullif(sum(rssi_n), 0) as rssi_mean,
  min(csq_min) as csq_min,
  max(csq_max) as csq_max,
  sum(csq_sum) / nullif(sum(csq_n), 0) as csq_mean
from
  (
    select
      modem,
      floor(date_part('epoch', "time") * 1000 / $2::float8) as bucket,
      rsrp as rsrp_min,
      rsrp as rsrp_max,
      rsrp::float8 as rsrp_sum,
      (rsrp is not null)::int as rsrp_n,
      rsrq as rsrq_min,
      rsrq as rsrq_max,
      rsrq::float8 as rsrq_sum,
      (rsrq is not null)::int as rsrq_n,
      sinr as sinr_min,
      sinr as sinr_max,
      sinr::float8 as sinr_sum,
      (sinr is not null)::int as sinr_n,
      rssi as rssi_min,
      rssi as rssi_max,
      rssi::float8 as rssi_sum,
      (rssi is not null)::int as rssi_n,
      csq as csq_min,
      csq as csq_max,
      csq::float8 as csq_sum,
      (csq is not null)::int as csq_n
    from
      signal_samples
    where
      device_id = (
        select
          id
        from
          devices
        where
          domain_id = $3
          and id = $4
      )
      and time >= $5
      and time < $6
  ) as u
group by
  modem,
  bucket
order by
  modem,
  bucket;

-- historyRepo.findOutages(domainId, deviceId, from, to)
select
  "started",
  "ended"
from
  "device_outages"
where
  "device_id" = (
    select
      id
    from
      devices
    where
      domain_id = $1
      and id = $2
  )
  and "ended" > $3
  and "started" < $4
order by
  "started"
limit
  $5;

-- historyRepo.findModemChanges(domainId, deviceId, from, to)
select
  "time",
  "modem",
  "changes"
from
  "modem_changes"
where
  "device_id" = (
    select
      id
    from
      devices
    where
      domain_id = $1
      and id = $2
  )
  and "time" >= $3
  and "time" < $4
order by
  "time"
limit
  $5;

-- historyRepo.findReboots(domainId, deviceId, from, to)
select
  coalesce(device_time, create_time) as "time"
from
  "events"
where
  "domain_id" = $1
  and "device_id" = $2
  and "kind" = $3
  and "create_time" >= $4
  and "create_time" < $5
order by
  "create_time"
limit
  $6;

-- historyRepo.findOutagesOfDevices(domainId, deviceIds, from, to)
select
  device_id,
  started,
  ended
from
  device_outages
where
  device_id in (
    select
      id
    from
      devices
    where
      domain_id = $1
      and id = any ($2::text[])
  )
  and ended > $3
  and started < $4
order by
  device_id,
  started;

-- historyRepo.findSignalMeansOfDevices(domainId, deviceIds, q)
select
  device_id,
  min(rsrp_min) as rsrp_min,
  max(rsrp_max) as rsrp_max,
  sum(rsrp_sum) / nullif(sum(rsrp_n), 0) as rsrp_mean,
  min(rsrq_min) as rsrq_min,
  max(rsrq_max) as rsrq_max,
  sum(rsrq_sum) / nullif(sum(rsrq_n), 0) as rsrq_mean,
  min(sinr_min) as sinr_min,
  max(sinr_max) as sinr_max,
  sum(sinr_sum) / nullif(sum(sinr_n), 0) as sinr_mean,
  min(rssi_min) as rssi_min,
  max(rssi_max) as rssi_max,
  sum(rssi_sum) / nullif(sum(rssi_n), 0) as rssi_mean,
  min(csq_min) as csq_min,
  max(csq_max) as csq_max,
  sum(csq_sum) / nullif(sum(csq_n), 0) as csq_mean
from
  (
    select
      device_id,
      rsrp as rsrp_min,
      rsrp as rsrp_max,
      rsrp::float8 as rsrp_sum,
      (rsrp is not null)::int as rsrp_n,
      rsrq as rsrq_min,
      rsrq as rsrq_max,
      rsrq::float8 as rsrq_sum,
      (rsrq is not null)::int as rsrq_n,
      sinr as sinr_min,
      sinr as sinr_max,
      sinr::float8 as sinr_sum,
      (sinr is not null)::int as sinr_n,
      rssi as rssi_min,
      rssi as rssi_max,
      rssi::float8 as rssi_sum,
      (rssi is not null)::int as rssi_n,
      csq as csq_min,
      csq as csq_max,
      csq::float8 as csq_sum,
      (csq is not null)::int as csq_n
    from
      signal_samples
    where
      device_id in (
        select
          id
        from
          devices
        where
          domain_id = $1
          and id = any ($2::text[])
      )
      and time >= $3
      and time < $4
    union all
    select
      device_id,
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
    from
      signal_rollups
    where
      device_id in (
        select
          id
        from
          devices
        where
          domain_id = $5
          and id = any ($6::text[])
      )
      and hour >= $7
      and hour < $8
  ) as u
group by
  device_id;

-- historyRepo.findSimSlotChangesOfDevices(domainId, deviceIds)
select
  device_id,
  modem,
  time,
  changes -> 'sim' ->> 'from' as "from",
  changes -> 'sim' ->> 'to' as "to"
from
  modem_changes
where
  device_id in (
    select
      id
    from
      devices
    where
      domain_id = $1
      and id = any ($2::text[])
  )
  and changes -> 'sim' is not null
order by
  device_id,
  modem,
  time;

-- historyRepo.findFirstKnown(domainId, deviceId)
select
  least(
    (
      select
        min(time)
      from
        signal_samples
      where
        device_id = (
          select
            id
          from
            devices
          where
            domain_id = $1
            and id = $2
        )
    ),
    (
      select
        min(hour)
      from
        signal_rollups
      where
        device_id = (
          select
            id
          from
            devices
          where
            domain_id = $3
            and id = $4
        )
    ),
    (
      select
        min(started)
      from
        device_outages
      where
        device_id = (
          select
            id
          from
            devices
          where
            domain_id = $5
            and id = $6
        )
    )
  ) as first;
