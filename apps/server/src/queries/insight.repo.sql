-- The SQL of src/modules/ingest/insight.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- ingestInsightRepo.writeInsightAcrossDomains(insight)
insert into
  signal_samples (
    device_id,
    modem,
    time,
    rsrp,
    rsrq,
    sinr,
    rssi,
    csq
  )
select
  *
from
  unnest(
    $1::text[],
    $2::text[],
    $3::timestamptz[],
    $4::real[],
    $5::real[],
    $6::real[],
    $7::real[],
    $8::smallint[]
  );
insert into
  sim_usage (
    domain_id,
    iccid,
    day,
    device_id,
    modem,
    slot,
    rx,
    tx,
    seen
  )
select
  *
from
  unnest(
    $1::text[],
    $2::text[],
    $3::date[],
    $4::text[],
    $5::text[],
    $6::smallint[],
    $7::bigint[],
    $8::bigint[],
    $9::timestamptz[]
  )
on conflict (domain_id, iccid, day, device_id) do update
set
  rx = sim_usage.rx + excluded.rx,
  tx = sim_usage.tx + excluded.tx,
  modem = excluded.modem,
  slot = excluded.slot,
  seen = greatest(sim_usage.seen, excluded.seen);
insert into
  modem_changes (device_id, time, modem, changes)
select
  *
from
  unnest(
    $1::text[],
    $2::timestamptz[],
    $3::text[],
    $4::jsonb[]
  );
insert into
  device_outages (device_id, started, ended)
select
  *
from
  unnest($1::text[], $2::timestamptz[], $3::timestamptz[]);
insert into
  signal_rollup_dirty (device_id, hour)
select
  *
from
  unnest($1::text[], $2::timestamptz[])
on conflict do nothing;
