-- The SQL of src/platform/db/domains.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- domainsRepo.findDomain(domainId)
select
  *
from
  "domains"
where
  "id" = $1;

-- domainsRepo.findDomainByNameAcrossDomains(name)
select
  *
from
  "domains"
where
  "name" = $1;

-- domainsRepo.insertDomain(domain)
insert into
  "domains" ("id")
values
  ($1);

-- domainsRepo.recordDomainSession(domainId, at)
update "domains"
set
  "last_session" = $1
where
  "id" = $2;

-- domainsRepo.updateDomain(domainId, changes)
update "domains"
set
where
  "id" = $1;
