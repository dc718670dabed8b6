-- The SQL of src/modules/registration/email-codes.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- emailCodesRepo.insertCodeAcrossDomains(code)
insert into
  "email_codes" (
    "id",
    "purpose",
    "email",
    "user_id",
    "code_hash",
    "expires_at",
    "create_time"
  )
values
  ($1, $2, $3, $4, $5, $6, $7);

-- emailCodesRepo.consumeCodeAcrossDomains(purpose, codeHash, at, email)
update "email_codes"
set
  "used_at" = $1
where
  "purpose" = $2
  and "code_hash" = $3
  and "used_at" is null
  and "expires_at" > $4
  and "email" = $5
returning
  "id",
  "email",
  "user_id";

-- emailCodesRepo.findLiveCodeAcrossDomains(purpose, codeHash, at)
select
  "id",
  "email",
  "user_id"
from
  "email_codes"
where
  "purpose" = $1
  and "code_hash" = $2
  and "used_at" is null
  and "expires_at" > $3;
