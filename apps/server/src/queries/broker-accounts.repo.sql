-- The SQL of src/modules/broker-accounts/broker-accounts.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- brokerAccountsRepo.findKeysByIdentsAcrossDomains(idents)
select
  "ident",
  "aes_key"
from
  "devices"
where
  "ident" in ($1);

-- brokerAccountsRepo.listIdentsAcrossDomains(after, limit)
select
  "ident"
from
  "devices"
where
  "ident" > $1
order by
  "ident"
limit
  $2;
