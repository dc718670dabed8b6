-- The SQL of src/modules/api-tokens/api-tokens.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- apiTokensRepo.insertToken(domainId, token)
insert into
  "api_tokens" ("id", "domain_id", "user_id", "expires_at")
values
  ($1, $2, $3, $4);

-- apiTokensRepo.listTokensOfUser(domainId, userId)
select
  "api_tokens"."id",
  "api_tokens"."domain_id",
  "api_tokens"."user_id",
  "users"."username",
  "api_tokens"."name",
  "api_tokens"."permissions",
  "api_tokens"."allowed_ips",
  "api_tokens"."tag_scope",
  "api_tokens"."create_time",
  "api_tokens"."expires_at",
  "api_tokens"."last_used_at",
  "api_tokens"."last_used_ip",
  "api_tokens"."revoked_at"
from
  "api_tokens"
  inner join "users" on "users"."id" = "api_tokens"."user_id"
where
  "api_tokens"."domain_id" = $1
  and "api_tokens"."user_id" = $2
order by
  "api_tokens"."create_time" desc,
  "api_tokens"."id";

-- apiTokensRepo.listTokensOfDomain(domainId)
select
  "api_tokens"."id",
  "api_tokens"."domain_id",
  "api_tokens"."user_id",
  "users"."username",
  "api_tokens"."name",
  "api_tokens"."permissions",
  "api_tokens"."allowed_ips",
  "api_tokens"."tag_scope",
  "api_tokens"."create_time",
  "api_tokens"."expires_at",
  "api_tokens"."last_used_at",
  "api_tokens"."last_used_ip",
  "api_tokens"."revoked_at"
from
  "api_tokens"
  inner join "users" on "users"."id" = "api_tokens"."user_id"
where
  "api_tokens"."domain_id" = $1
order by
  "api_tokens"."create_time" desc,
  "api_tokens"."id";

-- apiTokensRepo.countLiveTokensOfUser(domainId, userId, now)
select
  count(*) as "count"
from
  "api_tokens"
where
  "domain_id" = $1
  and "user_id" = $2
  and "revoked_at" is null
  and "expires_at" > $3;
-- (ended: Error: no result)

-- apiTokensRepo.revokeToken(domainId, tokenId, revoke)
update "api_tokens"
set
  "revoked_at" = $1
where
  "domain_id" = $2
  and "id" = $3
  and "revoked_at" is null
  and "user_id" = $4;

-- apiTokensRepo.findTokenByHashAcrossDomains(tokenHash)
select
  "id",
  "user_id",
  "name",
  "permissions",
  "allowed_ips",
  "tag_scope",
  "expires_at",
  "revoked_at",
  "last_used_at",
  "last_used_ip"
from
  "api_tokens"
where
  "token_hash" = $1;

-- apiTokensRepo.touchTokenAcrossDomains(tokenId, at, ip)
update "api_tokens"
set
  "last_used_at" = $1,
  "last_used_ip" = $2
where
  "id" = $3;
