-- The SQL of src/modules/devices-status/status-sweep.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- statusSweepRepo.findStatusChangesAcrossDomains(now, limit)
with
  dom as materialized (
    select
      id,
      settings,
      $1::timestamptz - make_interval(
        mins => coalesce(
          (
            select
              (e ->> 'minutes')::int
            from
              jsonb_array_elements(settings -> 'status') e
            where
              e ->> 'name' = 'online'
          ),
          -1
        )
      ) as online_since,
      $2::timestamptz - make_interval(
        mins => coalesce(
          (
            select
              (e ->> 'minutes')::int
            from
              jsonb_array_elements(settings -> 'status') e
            where
              e ->> 'name' = 'pending'
          ),
          -1
        )
      ) as pending_since,
      $3::timestamptz - make_interval(
        mins => coalesce(
          (
            select
              (e ->> 'minutes')::int
            from
              jsonb_array_elements(settings -> 'status') e
            where
              e ->> 'name' = 'warning'
          ),
          -1
        )
      ) as warning_since
    from
      domains
  )
select
  d.*,
  dom.settings
from
  devices d
  join dom on dom.id = d.domain_id
where
  d.last_status is distinct from (
    case
      when d.last_contact is null then 'pending'
      when d.last_contact >= dom.online_since then 'online'
      when d.last_contact >= dom.pending_since then 'pending'
      when d.last_contact >= dom.warning_since then 'warning'
      else 'critical'
    end
  )
limit
  $4;

-- statusSweepRepo.updateLastStatusesAcrossDomains(changes)
update devices as d
set
  last_status = v.status
from
  unnest($1::text[], $2::text[]) as v (id, status)
where
  d.id = v.id;
