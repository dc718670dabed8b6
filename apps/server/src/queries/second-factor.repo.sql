-- The SQL of src/modules/second-factor/second-factor.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- secondFactorRepo.findTotp(domainId, userId)
select
  "secret_sealed",
  "confirmed_at",
  "last_time_step"
from
  "user_totp"
where
  "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $1
      and "domain_id" = $2
  );

-- secondFactorRepo.saveUnconfirmedTotp(domainId, userId, secretSealed, at)
delete from "user_totp"
where
  "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $1
      and "domain_id" = $2
  )
  and "confirmed_at" is null;
select
  "id"
from
  "users"
where
  "id" = $1
  and "domain_id" = $2;
-- with a row answered to each query, also:
insert into
  "user_totp" ("user_id", "secret_sealed", "create_time")
values
  ($1, $2, $3)
on conflict ("user_id") do nothing;

-- secondFactorRepo.takeTotpStep(domainId, userId, timeStep, at)
update "user_totp"
set
  "last_time_step" = $1,
  "confirmed_at" = coalesce(confirmed_at, $2)
where
  "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $3
      and "domain_id" = $4
  )
  and "last_time_step" < $5;

-- secondFactorRepo.deleteTotp(domainId, userId)
delete from "user_totp"
where
  "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $1
      and "domain_id" = $2
  );

-- secondFactorRepo.listPasskeys(domainId, userId)
select
  "id",
  "credential_id",
  "public_key",
  "counter",
  "transports",
  "name",
  "create_time",
  "last_used_at"
from
  "user_passkeys"
where
  "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $1
      and "domain_id" = $2
  )
order by
  "create_time";

-- secondFactorRepo.insertPasskey(domainId, userId, passkey, at)
select
  "id"
from
  "users"
where
  "id" = $1
  and "domain_id" = $2;
-- (ended: Error: No such user in the domain)
-- with a row answered to each query, also:
insert into
  "user_passkeys" ("id", "user_id", "create_time")
values
  ($1, $2, $3);

-- secondFactorRepo.touchPasskey(domainId, userId, id, counter, at)
update "user_passkeys"
set
  "counter" = $1,
  "last_used_at" = $2
where
  "id" = $3
  and "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $4
      and "domain_id" = $5
  );

-- secondFactorRepo.deletePasskey(domainId, userId, id)
delete from "user_passkeys"
where
  "id" = $1
  and "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $2
      and "domain_id" = $3
  );

-- secondFactorRepo.replaceRecoveryCodes(domainId, userId, hashes)
delete from "user_recovery_codes"
where
  "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $1
      and "domain_id" = $2
  );
select
  "id"
from
  "users"
where
  "id" = $1
  and "domain_id" = $2;
-- with a row answered to each query, also:
insert into
  "user_recovery_codes" ("code_hash", "user_id")
values
  ($1, $2);

-- secondFactorRepo.countRecoveryCodesLeft(domainId, userId)
select
  count(*) as "count"
from
  "user_recovery_codes"
where
  "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $1
      and "domain_id" = $2
  )
  and "used_at" is null;
-- (ended: Error: no result)

-- secondFactorRepo.useRecoveryCode(domainId, userId, hash, at)
update "user_recovery_codes"
set
  "used_at" = $1
where
  "code_hash" = $2
  and "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $3
      and "domain_id" = $4
  )
  and "used_at" is null;

-- secondFactorRepo.refreshHasSecondFactor(domainId, userId)
select
  "user_id"
from
  "user_totp"
where
  "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $1
      and "domain_id" = $2
  )
  and "confirmed_at" is not null;
select
  "id"
from
  "user_passkeys"
where
  "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $1
      and "domain_id" = $2
  )
limit
  $3;
update "users"
set
  "has_second_factor" = $1
where
  "id" = $2
  and "domain_id" = $3
returning
  "has_second_factor";

-- secondFactorRepo.removeAllFactors(domainId, userId)
delete from "user_totp"
where
  "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $1
      and "domain_id" = $2
  );
delete from "user_passkeys"
where
  "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $1
      and "domain_id" = $2
  );
delete from "user_recovery_codes"
where
  "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $1
      and "domain_id" = $2
  );
delete from "second_factor_challenges"
where
  "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $1
      and "domain_id" = $2
  );
update "sign_in_devices"
set
  "second_factor_until" = $1
where
  "user_id" in (
    select
      "id"
    from
      "users"
    where
      "id" = $2
      and "domain_id" = $3
  );
update "users"
set
  "has_second_factor" = $1
where
  "id" = $2
  and "domain_id" = $3;

-- secondFactorRepo.insertChallengeAcrossDomains(row, now)
delete from "second_factor_challenges"
where
  "expires_at" < $1;
insert into
  "second_factor_challenges" ()
values
  ()
on conflict ("key_hash") do update
set
  "expires_at" = $1,
  "failed_attempts" = $2;

-- secondFactorRepo.findChallengeAcrossDomains(keyHash)
select
  *
from
  "second_factor_challenges"
where
  "key_hash" = $1;

-- secondFactorRepo.updateChallengeAcrossDomains(keyHash, changes)
update "second_factor_challenges"
set
where
  "key_hash" = $1;

-- secondFactorRepo.deleteChallengeAcrossDomains(keyHash)
delete from "second_factor_challenges"
where
  "key_hash" = $1;

-- secondFactorRepo.rememberBrowserAcrossDomains(deviceTokenHash, until)
update "sign_in_devices"
set
  "second_factor_until" = $1
where
  "token_hash" = $2;
