-- The SQL of src/modules/users/accounting-users.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- accountingUsersRepo.listUsers(domainId, filter)
select
  "users".*,
  "domains"."name" as "domain_name",
  "domains"."policy_id" as "domain_policy_id",
  "security_policies"."name" as "policy_name"
from
  "users"
  left join "domains" on "domains"."id" = "users"."domain_id"
  left join "security_policies" on "security_policies"."id" = "users"."policy_id"
where
  "users"."removed_at" is null
  and "users"."domain_id" = $1
order by
  "users"."username";

-- accountingUsersRepo.listUsersAfter(domainId, filter, after, limit)
select
  "users".*,
  "domains"."name" as "domain_name",
  "domains"."policy_id" as "domain_policy_id",
  "security_policies"."name" as "policy_name"
from
  "users"
  left join "domains" on "domains"."id" = "users"."domain_id"
  left join "security_policies" on "security_policies"."id" = "users"."policy_id"
where
  "users"."removed_at" is null
  and "users"."domain_id" = $1
  and "users"."username" > $2
order by
  "users"."username"
limit
  $3;

-- accountingUsersRepo.listUsersAfterAcrossDomains(filter, after, limit)
select
  "users".*,
  "domains"."name" as "domain_name",
  "domains"."policy_id" as "domain_policy_id",
  "security_policies"."name" as "policy_name"
from
  "users"
  left join "domains" on "domains"."id" = "users"."domain_id"
  left join "security_policies" on "security_policies"."id" = "users"."policy_id"
where
  "users"."removed_at" is null
  and "users"."username" > $1
order by
  "users"."username"
limit
  $2;

-- accountingUsersRepo.listUsersAcrossDomains(filter)
select
  "users".*,
  "domains"."name" as "domain_name",
  "domains"."policy_id" as "domain_policy_id",
  "security_policies"."name" as "policy_name"
from
  "users"
  left join "domains" on "domains"."id" = "users"."domain_id"
  left join "security_policies" on "security_policies"."id" = "users"."policy_id"
where
  "users"."removed_at" is null
order by
  "users"."username";

-- accountingUsersRepo.findAccountingUser(domainId, userId)
select
  "users".*,
  "domains"."name" as "domain_name",
  "domains"."policy_id" as "domain_policy_id",
  "security_policies"."name" as "policy_name"
from
  "users"
  left join "domains" on "domains"."id" = "users"."domain_id"
  left join "security_policies" on "security_policies"."id" = "users"."policy_id"
where
  "users"."id" = $1
  and "users"."domain_id" = $2;

-- accountingUsersRepo.findAccountingUserAcrossDomains(userId)
select
  "users".*,
  "domains"."name" as "domain_name",
  "domains"."policy_id" as "domain_policy_id",
  "security_policies"."name" as "policy_name"
from
  "users"
  left join "domains" on "domains"."id" = "users"."domain_id"
  left join "security_policies" on "security_policies"."id" = "users"."policy_id"
where
  "users"."id" = $1;

-- accountingUsersRepo.isUsernameTakenAcrossDomains(username, exceptUserId)
select
  "id"
from
  "users"
where
  lower("username") = $1
  and "id" <> $2;

-- accountingUsersRepo.isEmailTakenAcrossDomains(email, exceptUserId)
select
  "id"
from
  "users"
where
  "removed_at" is null
  and lower("email") = $1
  and "id" <> $2;

-- accountingUsersRepo.findUserByLoginAcrossDomains(login)
select
  "users".*,
  "domains"."name" as "domain_name",
  "domains"."policy_id" as "domain_policy_id"
from
  "users"
  left join "domains" on "domains"."id" = "users"."domain_id"
where
  "users"."removed_at" is null
  and "users"."is_demo" = $1
  and (
    lower("users"."username") = $2
    or lower("users"."email") = $3
  )
order by
  "users"."create_time";

-- accountingUsersRepo.removeUser(domainId, userId, at)
update "users"
set
  "removed_at" = $1
where
  "users"."id" = $2
  and "users"."domain_id" = $3;

-- accountingUsersRepo.listOpenSessionIds(domainId, userId)
select
  "sessions"."id"
from
  "sessions"
  inner join "users" on "users"."id" = "sessions"."user_id"
where
  "sessions"."user_id" = $1
  and "users"."domain_id" = $2
  and "sessions"."ended_at" is null;
