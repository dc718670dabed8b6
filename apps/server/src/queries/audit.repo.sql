-- The SQL of src/platform/audit/audit.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- auditRepo.insertWebAction(domainId, entry)
insert into
  "web_actions" ("domain_id", "author_id")
values
  ($1, $2);

-- auditRepo.findAuthorByUsernameAcrossDomains(username)
select
  "id",
  "domain_id"
from
  "users"
where
  lower("username") = $1;
