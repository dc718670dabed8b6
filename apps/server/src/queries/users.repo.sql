-- The SQL of src/modules/users/users.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- usersRepo.findUserWithPasswordHashByUsernameAcrossDomains(username)
select
  "users"."id",
  "users"."domain_id",
  "users"."username",
  "users"."full_name",
  "users"."role",
  "users"."is_junior",
  "users"."email",
  "users"."phone",
  "users"."plugins",
  "users"."factory_password",
  "users"."password_changed_at",
  "users"."password_expire_date",
  "users"."blocked",
  "users"."is_demo",
  "users"."policy_id",
  "users"."last_login",
  "users"."failed_attempts",
  "users"."create_time",
  "users"."blocked_until",
  "users"."block_reason",
  "users"."removed_at",
  "users"."untrusted_blocked",
  "users"."events_read_through",
  "users"."has_second_factor",
  "users"."tag_scope",
  "domains"."name" as "domain_name",
  "domains"."policy_id" as "domain_policy_id",
  "users"."password_hash"
from
  "users"
  left join "domains" on "domains"."id" = "users"."domain_id"
where
  lower("users"."username") = $1;

-- usersRepo.findDemoUserAcrossDomains()
select
  "users"."id",
  "users"."domain_id",
  "users"."username",
  "users"."full_name",
  "users"."role",
  "users"."is_junior",
  "users"."email",
  "users"."phone",
  "users"."plugins",
  "users"."factory_password",
  "users"."password_changed_at",
  "users"."password_expire_date",
  "users"."blocked",
  "users"."is_demo",
  "users"."policy_id",
  "users"."last_login",
  "users"."failed_attempts",
  "users"."create_time",
  "users"."blocked_until",
  "users"."block_reason",
  "users"."removed_at",
  "users"."untrusted_blocked",
  "users"."events_read_through",
  "users"."has_second_factor",
  "users"."tag_scope",
  "domains"."name" as "domain_name",
  "domains"."policy_id" as "domain_policy_id"
from
  "users"
  left join "domains" on "domains"."id" = "users"."domain_id"
where
  "users"."is_demo" = $1
order by
  "users"."create_time"
limit
  $2;

-- usersRepo.findUserByIdAcrossDomains(userId)
select
  "users"."id",
  "users"."domain_id",
  "users"."username",
  "users"."full_name",
  "users"."role",
  "users"."is_junior",
  "users"."email",
  "users"."phone",
  "users"."plugins",
  "users"."factory_password",
  "users"."password_changed_at",
  "users"."password_expire_date",
  "users"."blocked",
  "users"."is_demo",
  "users"."policy_id",
  "users"."last_login",
  "users"."failed_attempts",
  "users"."create_time",
  "users"."blocked_until",
  "users"."block_reason",
  "users"."removed_at",
  "users"."untrusted_blocked",
  "users"."events_read_through",
  "users"."has_second_factor",
  "users"."tag_scope",
  "domains"."name" as "domain_name",
  "domains"."policy_id" as "domain_policy_id"
from
  "users"
  left join "domains" on "domains"."id" = "users"."domain_id"
where
  "users"."id" = $1;

-- usersRepo.findUser(domainId, userId)
select
  "users"."id",
  "users"."domain_id",
  "users"."username",
  "users"."full_name",
  "users"."role",
  "users"."is_junior",
  "users"."email",
  "users"."phone",
  "users"."plugins",
  "users"."factory_password",
  "users"."password_changed_at",
  "users"."password_expire_date",
  "users"."blocked",
  "users"."is_demo",
  "users"."policy_id",
  "users"."last_login",
  "users"."failed_attempts",
  "users"."create_time",
  "users"."blocked_until",
  "users"."block_reason",
  "users"."removed_at",
  "users"."untrusted_blocked",
  "users"."events_read_through",
  "users"."has_second_factor",
  "users"."tag_scope",
  "domains"."name" as "domain_name",
  "domains"."policy_id" as "domain_policy_id"
from
  "users"
  left join "domains" on "domains"."id" = "users"."domain_id"
where
  "users"."id" = $1
  and "users"."domain_id" = $2;

-- usersRepo.findUserWithPasswordHash(domainId, userId)
select
  "users"."id",
  "users"."domain_id",
  "users"."username",
  "users"."full_name",
  "users"."role",
  "users"."is_junior",
  "users"."email",
  "users"."phone",
  "users"."plugins",
  "users"."factory_password",
  "users"."password_changed_at",
  "users"."password_expire_date",
  "users"."blocked",
  "users"."is_demo",
  "users"."policy_id",
  "users"."last_login",
  "users"."failed_attempts",
  "users"."create_time",
  "users"."blocked_until",
  "users"."block_reason",
  "users"."removed_at",
  "users"."untrusted_blocked",
  "users"."events_read_through",
  "users"."has_second_factor",
  "users"."tag_scope",
  "domains"."name" as "domain_name",
  "domains"."policy_id" as "domain_policy_id",
  "users"."password_hash"
from
  "users"
  left join "domains" on "domains"."id" = "users"."domain_id"
where
  "users"."id" = $1
  and "users"."domain_id" = $2;

-- usersRepo.insertUser(domainId, user)
insert into
  "users" ("id", "domain_id")
values
  ($1, $2);

-- usersRepo.updateUser(domainId, userId, changes)
update "users"
set
where
  "users"."id" = $1
  and "users"."domain_id" = $2;

-- usersRepo.listRecentPasswordHashes(domainId, userId, limit)
select
  "password_history"."password_hash"
from
  "password_history"
  inner join "users" on "users"."id" = "password_history"."user_id"
where
  "password_history"."user_id" = $1
  and "users"."domain_id" = $2
order by
  "password_history"."create_time" desc
limit
  $3;

-- usersRepo.addPasswordHistory(domainId, userId, passwordHash, at)
select
  "users"."id"
from
  "users"
where
  "users"."id" = $1
  and "users"."domain_id" = $2;
-- with a row answered to each query, also:
insert into
  "password_history" ("id", "user_id", "password_hash", "create_time")
values
  ($1, $2, $3, $4);
