-- The SQL of src/modules/actions/executions.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- executionsRepo.insertExecutions(domainId, rows)
insert into
  "command_executions" ("domain_id")
values
  ($1);

-- executionsRepo.findExecutions(domainId, filter, limit, offset)
select
  "e".*,
  "d"."ident",
  "c"."type",
  (
    select
      "t"."file_id"
    from
      "file_transfers" as "t"
    where
      "t"."execution_id" = "e"."id"
      and "t"."file_id" is not null
    order by
      "t"."finish_time" desc
    limit
      $1
  ) as "file_id"
from
  "command_executions" as "e"
  inner join "devices" as "d" on "d"."id" = "e"."device_id"
  inner join "commands" as "c" on "c"."id" = "e"."command_id"
where
  "e"."domain_id" = $2
  and "e"."command_id" = $3
  and "e"."device_id" = $4
order by
  "e"."create_time" desc,
  "d"."ident"
limit
  $5
offset
  $6;

-- executionsRepo.findExecutionDtos(domainId, ids)
select
  "e".*,
  "d"."ident",
  "c"."type",
  (
    select
      "t"."file_id"
    from
      "file_transfers" as "t"
    where
      "t"."execution_id" = "e"."id"
      and "t"."file_id" is not null
    order by
      "t"."finish_time" desc
    limit
      $1
  ) as "file_id"
from
  "command_executions" as "e"
  inner join "devices" as "d" on "d"."id" = "e"."device_id"
  inner join "commands" as "c" on "c"."id" = "e"."command_id"
where
  "e"."domain_id" = $2
  and "e"."id" in ($3);

-- executionsRepo.findExecution(domainId, id)
select
  "e".*,
  "d"."ident",
  "c"."type",
  (
    select
      "t"."file_id"
    from
      "file_transfers" as "t"
    where
      "t"."execution_id" = "e"."id"
      and "t"."file_id" is not null
    order by
      "t"."finish_time" desc
    limit
      $1
  ) as "file_id"
from
  "command_executions" as "e"
  inner join "devices" as "d" on "d"."id" = "e"."device_id"
  inner join "commands" as "c" on "c"."id" = "e"."command_id"
where
  "e"."domain_id" = $2
  and "e"."id" = $3;

-- executionsRepo.countByStatus(domainId, commandId)
select
  "status",
  count(*) as "n"
from
  "command_executions"
where
  "domain_id" = $1
  and "command_id" = $2
group by
  "status";

-- executionsRepo.moveExecutions(domainId, where, from, to, now, changes)
update "command_executions"
set
  "status" = $1,
  "update_time" = $2
where
  "domain_id" = $3
  and "status" in $4
  and "command_id" = $5
  and "id" in ($6)
  and "device_id" in ($7)
returning
  "id",
  "command_id",
  "device_id";

-- executionsRepo.findDevicesWithStatus(domainId, deviceIds, statuses)
select distinct
  "device_id"
from
  "command_executions"
where
  "domain_id" = $1
  and "device_id" in ($2)
  and "status" in ($3);

-- executionsRepo.findHeadsAcrossDomains(deviceIds)
select distinct
  on (e.device_id) e.id,
  e.domain_id,
  e.command_id,
  e.device_id,
  d.ident,
  d.command_types,
  e.status,
  e.attempts,
  e.last_publish_time,
  c.wire_type,
  case
    when e.rendered is null then c.args
    else c.args || jsonb_build_object('script', e.rendered)
  end as args,
  c.file_id,
  c.run_until
from
  command_executions e
  join devices d on d.id = e.device_id
  join commands c on c.id = e.command_id
where
  e.device_id in ($1)
  and e.status in ('queued', 'sent', 'in_progress')
order by
  e.device_id,
  e.position;

-- executionsRepo.applyMovesAcrossDomains(moves, now)
update command_executions e
set
  status = v.to_status,
  code = v.code,
  output = v.output,
  progress = v.progress,
  update_time = $1,
  finish_time = case
    when v.is_final then $2::timestamptz
    else e.finish_time
  end
from
  unnest(
    $3::text[],
    $4::text[],
    $5::text[],
    $6::int[],
    $7::text[],
    $8::real[],
    $9::bool[]
  ) as v (
    id,
    from_status,
    to_status,
    code,
    output,
    progress,
    is_final
  )
where
  e.id = v.id
  and e.status = v.from_status
returning
  e.id;

-- executionsRepo.claimPublishAcrossDomains(heads, now)
update command_executions e
set
  attempts = e.attempts + 1,
  last_publish_time = $1
from
  unnest($2::text[], $3::text[]) as v (id, seen)
where
  e.id = v.id
  and e.last_publish_time is not distinct from v.seen::timestamptz
returning
  e.id;

-- executionsRepo.findOwnExecutionsAcrossDomains(pairs)
select
  *
from
  "command_executions"
where
  "id" in ($1)
for update;

-- executionsRepo.findWatchdogWorkAcrossDomains(now, stuckBefore, limit)
(
  select
    e.id,
    e.domain_id,
    e.device_id,
    e.status,
    'expire' as why
  from
    command_executions e
    join commands c on c.id = e.command_id
  where
    e.status in ('unapproved', 'delayed', 'queued')
    and c.run_until is not null
    and c.run_until <= $1
  limit
    $2
)
union all
(
  select
    e.id,
    e.domain_id,
    e.device_id,
    e.status,
    'due' as why
  from
    command_executions e
    join commands c on c.id = e.command_id
  where
    e.status = 'delayed'
    and (
      c.delayed_until is null
      or c.delayed_until <= $3
    )
    and (
      c.run_until is null
      or c.run_until > $4
    )
  limit
    $5
)
union all
(
  select
    e.id,
    e.domain_id,
    e.device_id,
    e.status,
    'watchdog' as why
  from
    command_executions e
  where
    e.status in ('sent', 'in_progress')
    and e.update_time <= $6
  limit
    $7
);

-- executionsRepo.findUnacknowledgedDevicesAcrossDomains(before, limit)
select distinct
  "device_id"
from
  "command_executions"
where
  "status" = $1
  and "last_publish_time" <= $2
limit
  $3;
