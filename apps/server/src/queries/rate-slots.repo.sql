-- The SQL of src/modules/notifications/engine/rate-slots.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- rateSlotsRepo.reserveSlot(keys, now)
insert into
  "notification_rate_slots" ("next_at")
values
  ($1)
on conflict ("key") do nothing;
select
  key,
  next_at
from
  notification_rate_slots
where
  key = any ($1::text[])
order by
  key
for update;
update notification_rate_slots as s
set
  next_at = v.next_at
from
  unnest($1::text[], $2::timestamptz[]) as v (key, next_at)
where
  s.key = v.key;

-- rateSlotsRepo.deferKeys(keys, until)
update notification_rate_slots
set
  next_at = greatest(next_at, $1::timestamptz)
where
  key = any ($2::text[]);
