-- The SQL of src/modules/tunnels/tunnels.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- tunnelsRepo.insertSession(domainId, session)
insert into
  "tunnel_sessions" (
    "id",
    "domain_id",
    "device_id",
    "author_id",
    "created_at",
    "approved_at"
  )
values
  ($1, $2, $3, $4, $5, $6);

-- tunnelsRepo.findSession(domainId, id, tagScope)
select
  "t"."id",
  "t"."domain_id",
  "t"."device_id",
  "d"."ident",
  "t"."kind",
  "t"."state",
  "t"."minutes",
  "t"."author_id",
  "a"."username" as "author",
  "a"."role" as "author_role",
  "a"."is_junior" as "author_is_junior",
  "p"."username" as "approver",
  "t"."created_at",
  "t"."approved_at",
  "t"."opened_at",
  "t"."ended_at",
  "t"."end_reason",
  "t"."bytes_up",
  "t"."has_recording",
  "t"."bytes_down"
from
  "tunnel_sessions" as "t"
  inner join "devices" as "d" on "d"."id" = "t"."device_id"
  inner join "users" as "a" on "a"."id" = "t"."author_id"
  left join "users" as "p" on "p"."id" = "t"."approver_id"
where
  "t"."domain_id" = $1
  and ("d"."tags" ?| $2::text[])
  and "t"."id" = $3;

-- tunnelsRepo.listSessions(domainId, tagScope)
select
  "t"."id",
  "t"."domain_id",
  "t"."device_id",
  "d"."ident",
  "t"."kind",
  "t"."state",
  "t"."minutes",
  "t"."author_id",
  "a"."username" as "author",
  "a"."role" as "author_role",
  "a"."is_junior" as "author_is_junior",
  "p"."username" as "approver",
  "t"."created_at",
  "t"."approved_at",
  "t"."opened_at",
  "t"."ended_at",
  "t"."end_reason",
  "t"."bytes_up",
  "t"."has_recording",
  "t"."bytes_down"
from
  "tunnel_sessions" as "t"
  inner join "devices" as "d" on "d"."id" = "t"."device_id"
  inner join "users" as "a" on "a"."id" = "t"."author_id"
  left join "users" as "p" on "p"."id" = "t"."approver_id"
where
  "t"."domain_id" = $1
  and ("d"."tags" ?| $2::text[])
  and "t"."state" in ($3, $4, $5)
order by
  "t"."created_at" desc;
select
  "t"."id",
  "t"."domain_id",
  "t"."device_id",
  "d"."ident",
  "t"."kind",
  "t"."state",
  "t"."minutes",
  "t"."author_id",
  "a"."username" as "author",
  "a"."role" as "author_role",
  "a"."is_junior" as "author_is_junior",
  "p"."username" as "approver",
  "t"."created_at",
  "t"."approved_at",
  "t"."opened_at",
  "t"."ended_at",
  "t"."end_reason",
  "t"."bytes_up",
  "t"."has_recording",
  "t"."bytes_down"
from
  "tunnel_sessions" as "t"
  inner join "devices" as "d" on "d"."id" = "t"."device_id"
  inner join "users" as "a" on "a"."id" = "t"."author_id"
  left join "users" as "p" on "p"."id" = "t"."approver_id"
where
  "t"."domain_id" = $1
  and ("d"."tags" ?| $2::text[])
  and "t"."state" in ($3, $4)
order by
  "t"."created_at" desc
limit
  $5;

-- tunnelsRepo.moveState(domainId, id, from, change)
update "tunnel_sessions"
set
  "state" = $1
where
  "domain_id" = $2
  and "id" = $3
  and "state" in ($4);

-- tunnelsRepo.setSecret(domainId, id, secret)
update "tunnel_sessions"
set
  "secret_expires_at" = $1,
  "secret_used_at" = $2
where
  "domain_id" = $3
  and "id" = $4;

-- tunnelsRepo.useSecretAcrossDomains(id, hash, now)
update "tunnel_sessions"
set
  "secret_used_at" = $1
where
  "id" = $2
  and "secret_hash" = $3
  and "secret_used_at" is null
  and "secret_expires_at" > $4
  and "state" = $5
returning
  "id",
  "domain_id",
  "state",
  "secret_hash",
  "secret_expires_at",
  "secret_used_at";

-- tunnelsRepo.setOutcome(domainId, id, outcome)
update "tunnel_sessions"
set
where
  "domain_id" = $1
  and "id" = $2;

-- tunnelsRepo.listExpiredRecordingsAcrossDomains(now, limit)
select
  "t"."id",
  "t"."domain_id"
from
  "tunnel_sessions" as "t"
  inner join "domains" as "d" on "d"."id" = "t"."domain_id"
where
  "t"."has_recording" = $1
  and "t"."ended_at" < $2::timestamptz - make_interval(
    days => coalesce(
      (
        d.settings -> 'remote_access' ->> 'recording_days'
      )::int,
      90
    )
  )
order by
  "t"."ended_at"
limit
  $3;

-- tunnelsRepo.clearRecording(domainId, id)
update "tunnel_sessions"
set
  "has_recording" = $1
where
  "domain_id" = $2
  and "id" = $3;

-- tunnelsRepo.findRouter(domainId, deviceId)
select
  "ident",
  "connected"
from
  "devices"
where
  "domain_id" = $1
  and "id" = $2;
