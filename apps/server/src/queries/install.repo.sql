-- The SQL of src/modules/insight/install.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- installRepo.insertToken(domainId, token)
insert into
  "agent_install_tokens" (
    "domain_id",
    "device_id",
    "user_id",
    "created_at",
    "expires_at",
    "used_at"
  )
values
  ($1, $2, $3, $4, $5, $6);

-- installRepo.useTokenAcrossDomains(hash, now)
update "agent_install_tokens"
set
  "used_at" = $1
where
  "token_hash" = $2
  and "used_at" is null
  and "expires_at" > $3
returning
  "domain_id",
  "device_id",
  "user_id",
  "expires_at",
  "used_at";

-- installRepo.findTokenAcrossDomains(hash)
select
  "domain_id",
  "device_id",
  "user_id",
  "expires_at",
  "used_at"
from
  "agent_install_tokens"
where
  "token_hash" = $1;

-- installRepo.findInstallSubject(domainId, deviceId, userId)
select
  "devices"."ident",
  "devices"."aes_key",
  "users"."username"
from
  "devices"
  inner join "users" on "users"."id" = $1
where
  "devices"."domain_id" = $2
  and "devices"."id" = $3;

-- installRepo.deleteExpiredAcrossDomains(before)
delete from "agent_install_tokens"
where
  "expires_at" < $1;
