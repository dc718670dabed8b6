-- The SQL of src/platform/audit/audit-names.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- auditNamesRepo.findObjectNameAcrossDomains(type, id)
select
  "ident"::text as name
from
  "devices"
where
  id::text = $1
limit
  1;
