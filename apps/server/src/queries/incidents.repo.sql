-- The SQL of src/modules/notifications/engine/incidents.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- incidentsRepo.raiseProblems(domainId, ruleId, signals, now, dueAt)
insert into
  notification_incidents (
    id,
    domain_id,
    rule_id,
    subject_key,
    style,
    state,
    opened_line,
    started_at,
    due_at,
    last_seen_at
  )
select
  v.id,
  $1,
  $2,
  v.key,
  'state',
  'pending',
  v.line::jsonb,
  $3,
  $4,
  $5
from
  unnest($6::text[], $7::text[], $8::text[]) as v (id, key, line)
on conflict (rule_id, subject_key)
where
  state in ('pending', 'open', 'closing') do update
set
  last_seen_at = excluded.last_seen_at,
  repeats = notification_incidents.repeats + case
    when notification_incidents.state = 'closing' then 1
    else 0
  end,
  resolved_line = case
    when notification_incidents.state = 'closing' then null
    else notification_incidents.resolved_line
  end,
  due_at = case
    when notification_incidents.state = 'closing' then null
    else notification_incidents.due_at
  end,
  state = case
    when notification_incidents.state = 'closing' then 'open'
    else notification_incidents.state
  end;

-- incidentsRepo.resolveProblems(domainId, ruleId, signals, now, closingDueAt)
update notification_incidents as i
set
  state = case
    when i.state = 'pending' then 'closed'
    else 'closing'
  end,
  closed_at = case
    when i.state = 'pending' then $1::timestamptz
    else null
  end,
  due_at = case
    when i.state = 'pending' then null
    else $2::timestamptz
  end,
  resolved_line = jsonb_set(
    v.line::jsonb,
    '{params,durationMs}',
    to_jsonb(
      round(
        extract(
          epoch
          from
            ($3::timestamptz - i.started_at)
        ) * 1000
      )
    )
  ),
  last_seen_at = $4
from
  unnest($5::text[], $6::text[]) as v (key, line)
where
  i.rule_id = $7
  and i.subject_key = v.key
  and i.state in ('pending', 'open')
  and i.domain_id is not distinct from $8;

-- incidentsRepo.recordOccurrences(domainId, ruleId, signals, now, windowMs, isRepeat)
insert into
  notification_incidents (
    id,
    domain_id,
    rule_id,
    subject_key,
    style,
    state,
    opened_line,
    started_at,
    due_at,
    last_seen_at
  )
select
  v.id,
  $1,
  $2,
  v.key,
  'occurrence',
  'pending',
  v.line::jsonb,
  $3,
  $4,
  $5
from
  unnest($6::text[], $7::text[], $8::text[]) as v (id, key, line)
on conflict (rule_id, subject_key)
where
  state in ('pending', 'open', 'closing') do update
set
  last_seen_at = excluded.last_seen_at,
  repeats = notification_incidents.repeats + $9,
  due_at = case
    when notification_incidents.state = 'open'
    and notification_incidents.opened_line ? 'closeAtMs' then notification_incidents.due_at
    when notification_incidents.state = 'open' then greatest(notification_incidents.due_at, $10::timestamptz)
    else notification_incidents.due_at
  end;

-- incidentsRepo.findLiveSubjectKeys(domainId, ruleId)
select
  "subject_key"
from
  "notification_incidents"
where
  "domain_id" = $1
  and "rule_id" = $2
  and "state" in ($3, $4);

-- incidentsRepo.claimDueIncidents(domainId, ruleId, now)
select
  *
from
  "notification_incidents"
where
  "domain_id" = $1
  and "rule_id" = $2
  and "state" in ($3, $4, $5)
  and "due_at" <= $6
order by
  "started_at"
for update
  skip locked;

-- incidentsRepo.settleIncidents(domainId, settlements)
update notification_incidents as i
set
  state = v.state,
  due_at = v.due_at,
  announced_at = coalesce(i.announced_at, v.announced_at),
  closed_at = v.closed_at
from
  unnest(
    $1::text[],
    $2::text[],
    $3::timestamptz[],
    $4::timestamptz[],
    $5::timestamptz[]
  ) as v (id, state, due_at, announced_at, closed_at)
where
  i.id = v.id
  and i.domain_id is not distinct from $6;

-- incidentsRepo.closeRuleIncidents(domainId, ruleId, now)
update "notification_incidents"
set
  "state" = $1,
  "closed_at" = $2,
  "due_at" = $3
where
  "domain_id" = $4
  and "rule_id" = $5
  and "state" in ($6, $7, $8);

-- incidentsRepo.deleteClosedIncidentsAcrossDomains(before)
delete from "notification_incidents"
where
  "state" = $1
  and "closed_at" < $2;
