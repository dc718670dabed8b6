-- The SQL of src/modules/notifications/transports.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- transportsRepo.findTransports(domainId, search)
select
  "t".*,
  (
    select
      count(*) as "n"
    from
      "notification_rules" as "r"
    where
      "r"."transport_id" = "t"."id"
  ) as "rule_count"
from
  "notification_transports" as "t"
where
  "t"."domain_id" = $1
  and "t"."name" ilike $2
order by
  "t"."name";

-- transportsRepo.findTransport(domainId, id)
select
  "t".*,
  (
    select
      count(*) as "n"
    from
      "notification_rules" as "r"
    where
      "r"."transport_id" = "t"."id"
  ) as "rule_count"
from
  "notification_transports" as "t"
where
  "t"."domain_id" = $1
  and "t"."id" = $2;

-- transportsRepo.insertTransport(domainId, transport)
insert into
  "notification_transports" ("id", "domain_id", "create_time", "update_time")
values
  ($1, $2, $3, $4);

-- transportsRepo.updateTransport(domainId, id, change)
update "notification_transports"
set
  "update_time" = $1
where
  "domain_id" = $2
  and "id" = $3;

-- transportsRepo.updateTransportSettings(domainId, id, settings)
update "notification_transports"
set
  "settings" = $1
where
  "domain_id" = $2
  and "id" = $3;

-- transportsRepo.deleteTransport(domainId, id)
delete from "notification_transports"
where
  "domain_id" = $1
  and "id" = $2;

-- transportsRepo.recordTransportSuccess(domainId, id, at)
update "notification_transports"
set
  "failures" = $1,
  "last_success_at" = $2
where
  "domain_id" = $3
  and "id" = $4;

-- transportsRepo.recordTransportFailure(domainId, id, error, at)
update "notification_transports"
set
  "failures" = "failures" + $1,
  "last_error" = $2,
  "last_failure_at" = $3
where
  "domain_id" = $4
  and "id" = $5;
