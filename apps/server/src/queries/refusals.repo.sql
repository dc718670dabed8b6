-- The SQL of src/modules/ingest/refusals.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- refusalsRepo.upsertRefusals(rows)
insert into
  gateway_refusals (ident, reason, time, address, count)
select
  *
from
  unnest(
    $1::text[],
    $2::text[],
    $3::timestamptz[],
    $4::text[],
    $5::integer[]
  )
on conflict (ident) do update
set
  reason = excluded.reason,
  time = excluded.time,
  address = excluded.address,
  count = gateway_refusals.count + excluded.count;

-- refusalsRepo.findDeviceRefusal(domainId, deviceId)
select
  "gateway_refusals"."reason",
  "gateway_refusals"."time",
  "gateway_refusals"."address",
  "gateway_refusals"."count"
from
  "gateway_refusals"
  inner join "devices" on "devices"."ident" = "gateway_refusals"."ident"
where
  "devices"."domain_id" = $1
  and "devices"."id" = $2;
