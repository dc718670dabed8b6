-- The SQL of src/modules/auth/sessions.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- sessionsRepo.insertSessionAcrossDomains(session)
insert into
  "sessions" ("id")
values
  ($1);

-- sessionsRepo.findSessionByTokenHashAcrossDomains(tokenHash)
select
  *
from
  "sessions"
where
  "token_hash" = $1;

-- sessionsRepo.touchSessionAcrossDomains(sessionId, at)
update "sessions"
set
  "last_seen_at" = $1
where
  "id" = $2;

-- sessionsRepo.endSessionAcrossDomains(sessionId, at, reason)
update "sessions"
set
  "ended_at" = $1,
  "end_reason" = $2
where
  "id" = $3
  and "ended_at" is null;
