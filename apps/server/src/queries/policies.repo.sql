-- The SQL of src/modules/policies/policies.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- policiesRepo.findDefaultPolicy()
select
  *
from
  "security_policies"
where
  "is_default" = $1
  and "domain_id" is null;

-- policiesRepo.findPolicyOrDefault(domainId, policyId)
select
  *
from
  "security_policies"
where
  (
    (
      "domain_id" = $1
      or "domain_id" is null
    )
    and (
      "id" = $2
      or "is_default" = $3
    )
  )
order by
  "is_default" asc
limit
  $4;

-- policiesRepo.insertPolicy(domainId, policy, at)
insert into
  "security_policies" ("id", "domain_id", "create_time")
values
  ($1, $2, $3)
on conflict ("is_default")
where
  "is_default" = $4 do nothing;

-- policiesRepo.findUsablePolicy(domainId, policyId)
select
  *
from
  "security_policies"
where
  "id" = $1
  and (
    "domain_id" = $2
    or "domain_id" is null
  );

-- policiesRepo.listPolicies(domainId, search)
select
  *
from
  "security_policies"
where
  "is_default" = $1
  and (
    "domain_id" = $2
    or "domain_id" is null
  )
  and lower("name") like $3
order by
  "name";

-- policiesRepo.listPoliciesAcrossDomains(search)
select
  *
from
  "security_policies"
where
  "is_default" = $1
  and lower("name") like $2
order by
  "name";

-- policiesRepo.findPolicy(domainId, policyId)
select
  *
from
  "security_policies"
where
  "id" = $1
  and (
    "domain_id" = $2
    or "domain_id" is null
  );

-- policiesRepo.findPolicyAcrossDomains(policyId)
select
  *
from
  "security_policies"
where
  "id" = $1;

-- policiesRepo.createPolicy(domainId, policy, at)
insert into
  "security_policies" ("id", "domain_id", "is_default", "create_time")
values
  ($1, $2, $3, $4);

-- policiesRepo.updatePolicy(domainId, policyId, changes)
update "security_policies"
set
where
  "id" = $1
  and "domain_id" = $2;

-- policiesRepo.listUsablePolicies(domainId)
select
  *
from
  "security_policies"
where
  (
    "domain_id" = $1
    or "domain_id" is null
  )
order by
  "is_default" desc,
  "name";
