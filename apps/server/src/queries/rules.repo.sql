-- The SQL of src/modules/notifications/rules.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- rulesRepo.findRules(domainId, search)
select
  "r".*,
  "t"."name" as "transport_name",
  "t"."type" as "transport_type",
  (
    select
      count(*) as "n"
    from
      "notification_incidents" as "i"
    where
      "i"."rule_id" = "r"."id"
      and "i"."state" in ($1, $2)
  ) as "open_incidents"
from
  "notification_rules" as "r"
  left join "notification_transports" as "t" on "t"."id" = "r"."transport_id"
where
  (
    jsonb_array_length(coalesce("r"."filter_tags", '[]'::jsonb)) > 0
    and coalesce("r"."filter_tags", '[]'::jsonb) <@ $3::jsonb
  )
  and "r"."domain_id" = $4
  and (
    "r"."name" ilike $5
    or "r"."monitor" ilike $6
    or "t"."name" ilike $7
  )
order by
  "r"."name";

-- rulesRepo.findRulesAfter(domainId, search, after, limit)
select
  "r".*,
  "t"."name" as "transport_name",
  "t"."type" as "transport_type",
  (
    select
      count(*) as "n"
    from
      "notification_incidents" as "i"
    where
      "i"."rule_id" = "r"."id"
      and "i"."state" in ($1, $2)
  ) as "open_incidents"
from
  "notification_rules" as "r"
  left join "notification_transports" as "t" on "t"."id" = "r"."transport_id"
where
  (
    jsonb_array_length(coalesce("r"."filter_tags", '[]'::jsonb)) > 0
    and coalesce("r"."filter_tags", '[]'::jsonb) <@ $3::jsonb
  )
  and "r"."domain_id" = $4
  and (
    "r"."name" ilike $5
    or "r"."monitor" ilike $6
    or "t"."name" ilike $7
  )
  and "r"."name" > $8
order by
  "r"."name"
limit
  $9;

-- rulesRepo.countRules(domainId)
select
  count(*) as "total",
  count(*) filter (
    where
      active
      and not draft
  ) as "active"
from
  "notification_rules"
where
  "domain_id" = $1
  and (
    jsonb_array_length(coalesce("filter_tags", '[]'::jsonb)) > 0
    and coalesce("filter_tags", '[]'::jsonb) <@ $2::jsonb
  );
-- (ended: Error: no result)

-- rulesRepo.findRule(domainId, id)
select
  "r".*,
  "t"."name" as "transport_name",
  "t"."type" as "transport_type",
  (
    select
      count(*) as "n"
    from
      "notification_incidents" as "i"
    where
      "i"."rule_id" = "r"."id"
      and "i"."state" in ($1, $2)
  ) as "open_incidents"
from
  "notification_rules" as "r"
  left join "notification_transports" as "t" on "t"."id" = "r"."transport_id"
where
  (
    jsonb_array_length(coalesce("r"."filter_tags", '[]'::jsonb)) > 0
    and coalesce("r"."filter_tags", '[]'::jsonb) <@ $3::jsonb
  )
  and "r"."domain_id" = $4
  and "r"."id" = $5;

-- rulesRepo.insertRule(domainId, rule)
insert into
  "notification_rules" (
    "id",
    "author_id",
    "domain_id",
    "create_time",
    "update_time"
  )
values
  ($1, $2, $3, $4, $5);

-- rulesRepo.updateRule(domainId, id, values, at)
update "notification_rules"
set
  "update_time" = $1
where
  "domain_id" = $2
  and "id" = $3;

-- rulesRepo.setRuleActive(domainId, id, active, at)
update "notification_rules"
set
  "active" = $1,
  "update_time" = $2
where
  "domain_id" = $3
  and "id" = $4;

-- rulesRepo.deleteRule(domainId, id)
delete from "notification_rules"
where
  "domain_id" = $1
  and "id" = $2
  and (
    jsonb_array_length(coalesce("filter_tags", '[]'::jsonb)) > 0
    and coalesce("filter_tags", '[]'::jsonb) <@ $3::jsonb
  );

-- rulesRepo.findLiveRulesAcrossDomains(monitors, domainIds)
select
  *
from
  "notification_rules"
where
  "monitor" in ($1)
  and (
    "active" = $2
    and "draft" = $3
    and "transport_id" is not null
  )
  and "domain_id" in ($4);

-- rulesRepo.findLiveRulesOfMonitorAcrossDomains(monitor)
select
  *
from
  "notification_rules"
where
  "monitor" = $1
  and (
    "active" = $2
    and "draft" = $3
    and "transport_id" is not null
  );

-- rulesRepo.claimDueTimerRulesAcrossDomains(monitor, now, unitMs)
update "notification_rules"
set
  "timer_next_at" = $1::timestamptz + (check_delay * $2) * interval '1 millisecond'
where
  "monitor" = $3
  and (
    "active" = $4
    and "draft" = $5
    and "transport_id" is not null
  )
  and (
    "timer_next_at" is null
    or "timer_next_at" <= $6
  )
returning
  *;
