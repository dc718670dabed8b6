-- The SQL of src/modules/notifications/deliveries.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- deliveriesRepo.insertDelivery(domainId, delivery)
insert into
  "notification_deliveries" (
    "id",
    "domain_id",
    "rule_id",
    "transport_id",
    "state",
    "device_ids",
    "create_time",
    "update_time"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8);

-- deliveriesRepo.setDeliveryJob(domainId, id, jobId)
update "notification_deliveries"
set
  "job_id" = $1
where
  "domain_id" = $2
  and "id" = $3;

-- deliveriesRepo.findDeliveryWithTransport(domainId, id)
select
  *
from
  "notification_deliveries"
where
  "domain_id" = $1
  and "id" = $2;
-- with a row answered to each query, also:
select
  *
from
  "notification_transports"
where
  "domain_id" = $1
  and "id" = $2;

-- deliveriesRepo.startAttempt(domainId, id, at)
update "notification_deliveries"
set
  "state" = $1,
  "attempts" = "attempts" + $2,
  "update_time" = $3
where
  "domain_id" = $4
  and "id" = $5
returning
  "attempts";
-- (ended: Error: no result)
-- with a row answered to each query, also:
insert into
  "notification_delivery_attempts" ("delivery_id", "attempt", "outcome", "start_time")
values
  ($1, $2, $3, $4);

-- deliveriesRepo.finishAttempt(domainId, id, attempt, outcome)
update "notification_delivery_attempts"
set
  "end_time" = $1
where
  "delivery_id" = $2
  and "attempt" = $3
  and exists (
    select
      "d"."id"
    from
      "notification_deliveries" as "d"
    where
      "d"."id" = $4
      and "d"."domain_id" = $5
  );
update "notification_deliveries"
set
  "update_time" = $1
where
  "domain_id" = $2
  and "id" = $3;

-- deliveriesRepo.findDeliveries(domainId, filter)
select
  "d".*,
  "r"."name" as "rule_name",
  "t"."name" as "transport_name",
  "t"."type" as "transport_type",
  "j"."state" as "job_state",
  "j"."run_at" as "job_run_at"
from
  "notification_deliveries" as "d"
  left join "notification_rules" as "r" on "r"."id" = "d"."rule_id"
  left join "notification_transports" as "t" on "t"."id" = "d"."transport_id"
  left join "jobs" as "j" on "j"."id" = "d"."job_id"
where
  "d"."domain_id" = $1
  and "d"."id" = $2
  and "d"."rule_id" = $3
  and "d"."transport_id" = $4
order by
  "d"."create_time" desc,
  "d"."id" desc
limit
  $5
offset
  $6;

-- deliveriesRepo.findAttempts(domainId, deliveryIds)
select
  "a".*
from
  "notification_delivery_attempts" as "a"
  inner join "notification_deliveries" as "d" on "d"."id" = "a"."delivery_id"
where
  "d"."domain_id" = $1
  and "a"."delivery_id" in ($2)
order by
  "a"."delivery_id",
  "a"."attempt";

-- deliveriesRepo.requeueDelivery(domainId, id, at)
update "notification_deliveries"
set
  "state" = $1,
  "update_time" = $2
where
  "domain_id" = $3
  and "id" = $4
  and "state" in ($5, $6)
returning
  *;

-- deliveriesRepo.deleteOldDeliveriesAcrossDomains(before)
delete from notification_deliveries
where
  create_time < $1
  and state in ('sent', 'failed');
