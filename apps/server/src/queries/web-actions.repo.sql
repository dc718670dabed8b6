-- The SQL of src/modules/web-actions/web-actions.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- webActionsRepo.listWebActions(domainId, filter, page)
select
  "web_actions".*,
  "domains"."name" as "domain_name"
from
  "web_actions"
  left join "domains" on "domains"."id" = "web_actions"."domain_id"
where
  "web_actions"."create_time" >= $1
  and "web_actions"."create_time" < $2
  and "web_actions"."domain_id" = $3
order by
  "web_actions"."create_time" desc,
  "web_actions"."id" desc
limit
  $4
offset
  $5;

-- webActionsRepo.listWebActionsAcrossDomains(filter, page)
select
  "web_actions".*,
  "domains"."name" as "domain_name"
from
  "web_actions"
  left join "domains" on "domains"."id" = "web_actions"."domain_id"
where
  "web_actions"."create_time" >= $1
  and "web_actions"."create_time" < $2
order by
  "web_actions"."create_time" desc,
  "web_actions"."id" desc
limit
  $3
offset
  $4;

-- webActionsRepo.listWebActionsAfter(domainId, filter, after, limit)
select
  "web_actions".*,
  "domains"."name" as "domain_name"
from
  "web_actions"
  left join "domains" on "domains"."id" = "web_actions"."domain_id"
where
  "web_actions"."create_time" >= $1
  and "web_actions"."create_time" < $2
  and (web_actions.create_time, web_actions.id) < (
    select
      c.create_time,
      c.id
    from
      web_actions c
    where
      c.id = $3::bigint
  )
  and "web_actions"."domain_id" = $4
order by
  "web_actions"."create_time" desc,
  "web_actions"."id" desc
limit
  $5;

-- webActionsRepo.listWebActionsAfterAcrossDomains(filter, after, limit)
select
  "web_actions".*,
  "domains"."name" as "domain_name"
from
  "web_actions"
  left join "domains" on "domains"."id" = "web_actions"."domain_id"
where
  "web_actions"."create_time" >= $1
  and "web_actions"."create_time" < $2
  and (web_actions.create_time, web_actions.id) < (
    select
      c.create_time,
      c.id
    from
      web_actions c
    where
      c.id = $3::bigint
  )
order by
  "web_actions"."create_time" desc,
  "web_actions"."id" desc
limit
  $4;
