-- The SQL of src/modules/notifications/news.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- newsRepo.insertNews(domainId, item)
insert into
  "notification_news" (
    "id",
    "domain_id",
    "rule_id",
    "device_ids",
    "create_time"
  )
values
  ($1, $2, $3, $4, $5);

-- newsRepo.findNews(domainId, limit, tagScope)
select
  "n".*,
  "r"."name" as "rule_name"
from
  "notification_news" as "n"
  left join "notification_rules" as "r" on "r"."id" = "n"."rule_id"
where
  "n"."domain_id" = $1
  and (
    "n"."device_ids" is null
    or not exists (
      select
        1
      from
        jsonb_array_elements_text("n"."device_ids") as named (id)
        left join devices as nd on nd.id = named.id
      where
        nd.id is null
        or not ("nd"."tags" ?| $2::text[])
    )
  )
order by
  "n"."create_time" desc,
  "n"."id" desc
limit
  $3;

-- newsRepo.countNewsSince(domainId, since, tagScope)
select
  count(*) as "n"
from
  "notification_news"
where
  "domain_id" = $1
  and (
    "notification_news"."device_ids" is null
    or not exists (
      select
        1
      from
        jsonb_array_elements_text("notification_news"."device_ids") as named (id)
        left join devices as nd on nd.id = named.id
      where
        nd.id is null
        or not ("nd"."tags" ?| $2::text[])
    )
  )
  and "create_time" > $3;
-- (ended: Error: no result)

-- newsRepo.findSeenUntil(domainId, userId)
select
  "s"."seen_until"
from
  "notification_news_seen" as "s"
  inner join "users" as "u" on "u"."id" = "s"."user_id"
where
  "u"."domain_id" = $1
  and "s"."user_id" = $2;

-- newsRepo.setSeenUntil(domainId, userId, until)
select
  "id"
from
  "users"
where
  "domain_id" = $1
  and "id" = $2;
-- with a row answered to each query, also:
insert into
  "notification_news_seen" ("user_id", "seen_until")
values
  ($1, $2)
on conflict ("user_id") do update
set
  "seen_until" = greatest(
    "notification_news_seen"."seen_until",
    "excluded"."seen_until"
  );

-- newsRepo.findAudienceEmails(domainId, deviceIds)
select
  "email",
  "plugins",
  "tag_scope"
from
  "users"
where
  "domain_id" = $1
  and "email" is not null
  and "removed_at" is null
  and "blocked" = $2;
select
  "tags"
from
  "devices"
where
  "domain_id" = $1
  and "id" in ($2);

-- newsRepo.deleteOldNewsAcrossDomains(before)
delete from "notification_news"
where
  "create_time" < $1;
