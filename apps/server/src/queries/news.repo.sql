-- The SQL of src/modules/notifications/news.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- newsRepo.insertNews(domainId, item)
insert into
  "notification_news" ("id", "domain_id", "rule_id", "create_time")
values
  ($1, $2, $3, $4);

-- newsRepo.findNews(domainId, limit)
select
  "n".*,
  "r"."name" as "rule_name"
from
  "notification_news" as "n"
  left join "notification_rules" as "r" on "r"."id" = "n"."rule_id"
where
  "n"."domain_id" = $1
order by
  "n"."create_time" desc,
  "n"."id" desc
limit
  $2;

-- newsRepo.countNewsSince(domainId, since)
select
  count(*) as "n"
from
  "notification_news"
where
  "domain_id" = $1
  and "create_time" > $2;
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

-- newsRepo.findAudienceEmails(domainId)
select
  "email",
  "plugins"
from
  "users"
where
  "domain_id" = $1
  and "email" is not null
  and "removed_at" is null
  and "blocked" = $2;

-- newsRepo.deleteOldNewsAcrossDomains(before)
delete from "notification_news"
where
  "create_time" < $1;
