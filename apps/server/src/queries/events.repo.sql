-- The SQL of src/modules/events/events.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- eventsRepo.findEvents(domainId, userId, filter, limit, offset)
select
  "events".*,
  "devices"."ident" as "device_ident",
  (
    events.is_quiet
    or events.id <= coalesce(
      (
        select
          u.events_read_through
        from
          users u
        where
          u.id = $1
      ),
      0
    )
    or exists (
      select
        1
      from
        event_reads r
      where
        r.user_id = $2
        and r.event_id = events.id
    )
  ) as "read_by_me"
from
  "events"
  left join "devices" on "devices"."id" = "events"."device_id"
  and "devices"."domain_id" = $3
where
  "events"."domain_id" = $4
  and "events"."device_id" = $5
  and "events"."create_time" >= $6
  and "events"."create_time" < $7
order by
  "events"."create_time" desc,
  "events"."id" desc
limit
  $8
offset
  $9;

-- eventsRepo.findEventsAfter(domainId, userId, filter, after, limit)
select
  "events".*,
  "devices"."ident" as "device_ident",
  (
    events.is_quiet
    or events.id <= coalesce(
      (
        select
          u.events_read_through
        from
          users u
        where
          u.id = $1
      ),
      0
    )
    or exists (
      select
        1
      from
        event_reads r
      where
        r.user_id = $2
        and r.event_id = events.id
    )
  ) as "read_by_me"
from
  "events"
  left join "devices" on "devices"."id" = "events"."device_id"
  and "devices"."domain_id" = $3
where
  "events"."domain_id" = $4
  and "events"."device_id" = $5
  and "events"."create_time" >= $6
  and "events"."create_time" < $7
  and (events.create_time, events.id) < (
    select
      c.create_time,
      c.id
    from
      events c
    where
      c.domain_id = $8
      and c.id = $9::bigint
  )
order by
  "events"."create_time" desc,
  "events"."id" desc
limit
  $10;

-- eventsRepo.countUnreadEvents(domainId, userId, tagScope)
select
  count(*) as "count"
from
  "events"
where
  "domain_id" = $1
  and not (
    events.is_quiet
    or events.id <= coalesce(
      (
        select
          u.events_read_through
        from
          users u
        where
          u.id = $2
      ),
      0
    )
    or exists (
      select
        1
      from
        event_reads r
      where
        r.user_id = $3
        and r.event_id = events.id
    )
  )
  and exists (
    select
      1
    from
      devices d
    where
      d.id = "events"."device_id"
      and d.domain_id = "events"."domain_id"
      and ("d"."tags" ?| $4::text[])
  );
-- (ended: Error: no result)

-- eventsRepo.markEventsReadByUser(domainId, userId, ids, tagScope)
with
  marked as (
    insert into
      event_reads (user_id, event_id)
    select
      $1,
      events.id
    from
      events
    where
      events.domain_id = $2
      and events.id in ($3::bigint)
      and not (
        events.is_quiet
        or events.id <= coalesce(
          (
            select
              u.events_read_through
            from
              users u
            where
              u.id = $4
          ),
          0
        )
        or exists (
          select
            1
          from
            event_reads r
          where
            r.user_id = $5
            and r.event_id = events.id
        )
      )
    on conflict do nothing
    returning
      event_id
  ),
  shares as (
    insert into
      device_event_reads (user_id, device_id, read_count)
    select
      $6,
      e.device_id,
      count(*)::int
    from
      marked
      join events e on e.id = marked.event_id
    where
      e.device_id is not null
    group by
      e.device_id
    on conflict (user_id, device_id) do update
    set
      read_count = device_event_reads.read_count + excluded.read_count
  )
select
  count(*)::int as updated
from
  marked;

-- eventsRepo.countEventsByIds(domainId, ids, tagScope)
select
  count(*) as "count"
from
  "events"
where
  "domain_id" = $1
  and "id" in ($2)
  and exists (
    select
      1
    from
      devices d
    where
      d.id = "events"."device_id"
      and d.domain_id = "events"."domain_id"
      and ("d"."tags" ?| $3::text[])
  );
-- (ended: Error: no result)

-- eventsRepo.isDeviceInDomain(domainId, deviceId)
select
  "id"
from
  "devices"
where
  "domain_id" = $1
  and "id" = $2;
