-- The SQL of src/modules/domains/domain-list.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- domainListRepo.listDomainsAcrossDomains(search, page, now)
select
  "domains".*,
  (
    select
      count(*) filter (
        where
          devices.last_contact >= $1::timestamptz - make_interval(
            mins => coalesce(
              (
                select
                  (e ->> 'minutes')::int
                from
                  jsonb_array_elements(domains.settings -> 'status') e
                where
                  e ->> 'name' = $2
                limit
                  1
              ),
              0
            )
          )
      )::int as "c"
    from
      "devices"
    where
      "devices"."domain_id" = "domains"."id"
  ) as "online",
  (
    select
      count(*) filter (
        where
          devices.last_contact < $3::timestamptz - make_interval(
            mins => greatest(
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $4
                  limit
                    1
                ),
                0
              ),
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $5
                  limit
                    1
                ),
                0
              )
            )
          )
          and devices.last_contact >= $6::timestamptz - make_interval(
            mins => coalesce(
              (
                select
                  (e ->> 'minutes')::int
                from
                  jsonb_array_elements(domains.settings -> 'status') e
                where
                  e ->> 'name' = $7
                limit
                  1
              ),
              0
            )
          )
      )::int as "c"
    from
      "devices"
    where
      "devices"."domain_id" = "domains"."id"
  ) as "warning",
  (
    select
      count(*) filter (
        where
          devices.last_contact < $8::timestamptz - make_interval(
            mins => greatest(
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $9
                  limit
                    1
                ),
                0
              ),
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $10
                  limit
                    1
                ),
                0
              ),
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $11
                  limit
                    1
                ),
                0
              )
            )
          )
      )::int as "c"
    from
      "devices"
    where
      "devices"."domain_id" = "domains"."id"
  ) as "critical"
from
  "domains"
where
  (
    lower(domains.name) like $12
    or lower(domains.full_name) like $13
    or lower(coalesce(domains.email, '')) like $14
    or lower(coalesce(domains.manager, '')) like $15
    or lower(coalesce(domains.tin, '')) like $16
  )
order by
  "domains"."name"
limit
  $17
offset
  $18;
select
  count(*)::int as "total"
from
  "domains"
where
  (
    lower(domains.name) like $1
    or lower(domains.full_name) like $2
    or lower(coalesce(domains.email, '')) like $3
    or lower(coalesce(domains.manager, '')) like $4
    or lower(coalesce(domains.tin, '')) like $5
  );

-- domainListRepo.listDomainsAfterAcrossDomains(search, after, limit, now)
select
  "domains".*,
  (
    select
      count(*) filter (
        where
          devices.last_contact >= $1::timestamptz - make_interval(
            mins => coalesce(
              (
                select
                  (e ->> 'minutes')::int
                from
                  jsonb_array_elements(domains.settings -> 'status') e
                where
                  e ->> 'name' = $2
                limit
                  1
              ),
              0
            )
          )
      )::int as "c"
    from
      "devices"
    where
      "devices"."domain_id" = "domains"."id"
  ) as "online",
  (
    select
      count(*) filter (
        where
          devices.last_contact < $3::timestamptz - make_interval(
            mins => greatest(
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $4
                  limit
                    1
                ),
                0
              ),
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $5
                  limit
                    1
                ),
                0
              )
            )
          )
          and devices.last_contact >= $6::timestamptz - make_interval(
            mins => coalesce(
              (
                select
                  (e ->> 'minutes')::int
                from
                  jsonb_array_elements(domains.settings -> 'status') e
                where
                  e ->> 'name' = $7
                limit
                  1
              ),
              0
            )
          )
      )::int as "c"
    from
      "devices"
    where
      "devices"."domain_id" = "domains"."id"
  ) as "warning",
  (
    select
      count(*) filter (
        where
          devices.last_contact < $8::timestamptz - make_interval(
            mins => greatest(
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $9
                  limit
                    1
                ),
                0
              ),
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $10
                  limit
                    1
                ),
                0
              ),
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $11
                  limit
                    1
                ),
                0
              )
            )
          )
      )::int as "c"
    from
      "devices"
    where
      "devices"."domain_id" = "domains"."id"
  ) as "critical"
from
  "domains"
where
  (
    lower(domains.name) like $12
    or lower(domains.full_name) like $13
    or lower(coalesce(domains.email, '')) like $14
    or lower(coalesce(domains.manager, '')) like $15
    or lower(coalesce(domains.tin, '')) like $16
  )
  and "domains"."name" > $17
order by
  "domains"."name"
limit
  $18;

-- domainListRepo.countDevicesByDomainAcrossDomains(now)
select
  "domains".*,
  (
    select
      count(*) filter (
        where
          devices.last_contact >= $1::timestamptz - make_interval(
            mins => coalesce(
              (
                select
                  (e ->> 'minutes')::int
                from
                  jsonb_array_elements(domains.settings -> 'status') e
                where
                  e ->> 'name' = $2
                limit
                  1
              ),
              0
            )
          )
      )::int as "c"
    from
      "devices"
    where
      "devices"."domain_id" = "domains"."id"
  ) as "online",
  (
    select
      count(*) filter (
        where
          devices.last_contact < $3::timestamptz - make_interval(
            mins => greatest(
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $4
                  limit
                    1
                ),
                0
              ),
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $5
                  limit
                    1
                ),
                0
              )
            )
          )
          and devices.last_contact >= $6::timestamptz - make_interval(
            mins => coalesce(
              (
                select
                  (e ->> 'minutes')::int
                from
                  jsonb_array_elements(domains.settings -> 'status') e
                where
                  e ->> 'name' = $7
                limit
                  1
              ),
              0
            )
          )
      )::int as "c"
    from
      "devices"
    where
      "devices"."domain_id" = "domains"."id"
  ) as "warning",
  (
    select
      count(*) filter (
        where
          devices.last_contact < $8::timestamptz - make_interval(
            mins => greatest(
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $9
                  limit
                    1
                ),
                0
              ),
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $10
                  limit
                    1
                ),
                0
              ),
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $11
                  limit
                    1
                ),
                0
              )
            )
          )
      )::int as "c"
    from
      "devices"
    where
      "devices"."domain_id" = "domains"."id"
  ) as "critical",
  (
    select
      count(*)::int as "c"
    from
      "devices"
    where
      "devices"."domain_id" = "domains"."id"
  ) as "total",
  (
    select
      count(*) filter (
        where
          devices.connected
      )::int as "c"
    from
      "devices"
    where
      "devices"."domain_id" = "domains"."id"
  ) as "connected"
from
  "domains"
order by
  "domains"."name";

-- domainListRepo.findDomainWithCounts(domainId, now)
select
  "domains".*,
  (
    select
      count(*) filter (
        where
          devices.last_contact >= $1::timestamptz - make_interval(
            mins => coalesce(
              (
                select
                  (e ->> 'minutes')::int
                from
                  jsonb_array_elements(domains.settings -> 'status') e
                where
                  e ->> 'name' = $2
                limit
                  1
              ),
              0
            )
          )
      )::int as "c"
    from
      "devices"
    where
      "devices"."domain_id" = "domains"."id"
  ) as "online",
  (
    select
      count(*) filter (
        where
          devices.last_contact < $3::timestamptz - make_interval(
            mins => greatest(
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $4
                  limit
                    1
                ),
                0
              ),
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $5
                  limit
                    1
                ),
                0
              )
            )
          )
          and devices.last_contact >= $6::timestamptz - make_interval(
            mins => coalesce(
              (
                select
                  (e ->> 'minutes')::int
                from
                  jsonb_array_elements(domains.settings -> 'status') e
                where
                  e ->> 'name' = $7
                limit
                  1
              ),
              0
            )
          )
      )::int as "c"
    from
      "devices"
    where
      "devices"."domain_id" = "domains"."id"
  ) as "warning",
  (
    select
      count(*) filter (
        where
          devices.last_contact < $8::timestamptz - make_interval(
            mins => greatest(
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $9
                  limit
                    1
                ),
                0
              ),
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $10
                  limit
                    1
                ),
                0
              ),
              coalesce(
                (
                  select
                    (e ->> 'minutes')::int
                  from
                    jsonb_array_elements(domains.settings -> 'status') e
                  where
                    e ->> 'name' = $11
                  limit
                    1
                ),
                0
              )
            )
          )
      )::int as "c"
    from
      "devices"
    where
      "devices"."domain_id" = "domains"."id"
  ) as "critical"
from
  "domains"
where
  "domains"."id" = $12;
