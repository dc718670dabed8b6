-- The SQL of src/modules/auth/sign-in.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- signInRepo.findDeviceAcrossDomains(tokenHash)
select
  "token_hash",
  "user_id",
  "failed_attempts",
  "blocked_until",
  "blocked",
  "expires_at",
  "second_factor_until"
from
  "sign_in_devices"
where
  "token_hash" = $1;

-- signInRepo.insertDeviceAcrossDomains(row)
insert into
  "sign_in_devices" ()
values
  ();

-- signInRepo.updateDeviceAcrossDomains(tokenHash, changes)
update "sign_in_devices"
set
where
  "token_hash" = $1;

-- signInRepo.resetDevicesOfUserAcrossDomains(userId)
update "sign_in_devices"
set
  "failed_attempts" = $1,
  "blocked_until" = $2,
  "blocked" = $3
where
  "user_id" = $4;

-- signInRepo.findUnknown(usernameHash)
select
  "failed_attempts",
  "blocked_until"
from
  "sign_in_unknown"
where
  "username_hash" = $1;

-- signInRepo.countUnknownFailure(usernameHash, now)
delete from "sign_in_unknown"
where
  "update_time" < $1;
insert into
  "sign_in_unknown" ("username_hash", "failed_attempts", "update_time")
values
  ($1, $2, $3)
on conflict ("username_hash") do update
set
  "failed_attempts" = sign_in_unknown.failed_attempts + 1,
  "update_time" = $4
returning
  "failed_attempts";
-- (ended: Error: no result)

-- signInRepo.blockUnknown(usernameHash, until)
update "sign_in_unknown"
set
  "blocked_until" = $1
where
  "username_hash" = $2;
