-- The SQL of src/modules/scripts/scripts.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- scriptsRepo.list(domainId, kind, search)
select
  *
from
  "scripts"
where
  "domain_id" = $1
  and "kind" = $2
  and "deleted" = $3
  and lower(name) like $4
order by
  lower(name)
limit
  $5;

-- scriptsRepo.find(domainId, kind, id)
select
  *
from
  "scripts"
where
  "domain_id" = $1
  and "kind" = $2
  and "id" = $3
  and "deleted" = $4;

-- scriptsRepo.lock(domainId, kind, id)
select
  *
from
  "scripts"
where
  "domain_id" = $1
  and "kind" = $2
  and "id" = $3
  and "deleted" = $4
for update;

-- scriptsRepo.versions(domainId, scriptId)
select
  "script_versions".*
from
  "script_versions"
  inner join "scripts" on "scripts"."id" = "script_versions"."script_id"
where
  "scripts"."domain_id" = $1
  and "script_versions"."script_id" = $2
order by
  "script_versions"."version" desc;

-- scriptsRepo.version(domainId, scriptId, version)
select
  "script_versions".*
from
  "script_versions"
  inner join "scripts" on "scripts"."id" = "script_versions"."script_id"
where
  "scripts"."domain_id" = $1
  and "script_versions"."script_id" = $2
  and "script_versions"."version" = $3;

-- scriptsRepo.insert(domainId, row)
insert into
  "scripts" ("domain_id")
values
  ($1);

-- scriptsRepo.insertVersion(domainId, row)
insert into
  "script_versions" (
    "script_id",
    "version",
    "text",
    "var_values",
    "author_id",
    "author_name",
    "create_time"
  )
select
  "scripts"."id",
  $1::integer as "version",
  $2::text as "text",
  $3::jsonb as "var_values",
  $4::text as "author_id",
  $5::text as "author_name",
  $6::timestamptz as "create_time"
from
  "scripts"
where
  "scripts"."domain_id" = $7
  and "scripts"."id" = $8;
-- (ended: Error: Script 00000000-0000-4000-8000-000000000001 is not of domain 00000000-0000-4000-8000-00000000d0d0)

-- scriptsRepo.update(domainId, id, changes)
update "scripts"
set
where
  "domain_id" = $1
  and "id" = $2;

-- scriptsRepo.markDeleted(domainId, kind, id)
update "scripts"
set
  "deleted" = $1
where
  "domain_id" = $2
  and "kind" = $3
  and "id" = $4
  and "deleted" = $5;
