-- The SQL of src/modules/firmware/rollout-offers.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- rolloutOffersRepo.listOffers(domainId)
select
  "o".*,
  "s"."name" as "rule_name",
  "r"."version",
  "r"."status" as "rollout_status",
  "r"."window_start" as "rollout_window_start",
  "r"."window_end" as "rollout_window_end"
from
  "firmware_rollout_domains" as "o"
  inner join "firmware_rollouts" as "r" on "r"."id" = "o"."rollout_id"
  left join "software_rules" as "s" on "s"."id" = "r"."rule_id"
where
  "o"."domain_id" = $1
order by
  "o"."create_time" desc,
  "o"."rollout_id" desc
limit
  $2;

-- rolloutOffersRepo.countDomainTargets(domainId, rolloutIds)
select
  "rollout_id",
  "state",
  count(*) as "count"
from
  "firmware_rollout_targets"
where
  "domain_id" = $1
  and "rollout_id" in ($2)
group by
  "rollout_id",
  "state";

-- rolloutOffersRepo.countSucceededFlashesOfDevices(domainId, deviceIds, from, to)
select
  "device_id",
  count(*) as "count"
from
  "firmware_rollout_targets"
where
  "domain_id" = $1
  and device_id = any ($2::text[])
  and "state" = $3
  and "update_time" >= $4
  and "update_time" < $5
group by
  "device_id";

-- rolloutOffersRepo.lockOffer(domainId, rolloutId)
select
  *
from
  "firmware_rollout_domains"
where
  "domain_id" = $1
  and "rollout_id" = $2
for update;

-- rolloutOffersRepo.decideOffer(domainId, rolloutId, answer)
update "firmware_rollout_domains"
set
where
  "domain_id" = $1
  and "rollout_id" = $2;

-- rolloutOffersRepo.releaseDomainTargets(domainId, rolloutId, now)
update "firmware_rollout_targets"
set
  "reason" = $1,
  "update_time" = $2
where
  "domain_id" = $3
  and "rollout_id" = $4
  and "state" = $5
  and "reason" = $6;

-- rolloutOffersRepo.skipDomainTargets(domainId, rolloutId, now)
update "firmware_rollout_targets"
set
  "state" = $1,
  "reason" = $2,
  "update_time" = $3
where
  "domain_id" = $4
  and "rollout_id" = $5
  and "state" = $6;

-- rolloutOffersRepo.insertOffersAcrossDomains(rows)
insert into
  "firmware_rollout_domains" ()
values
  ();

-- rolloutOffersRepo.listRolloutDomainsAcrossDomains(rolloutId)
select
  "o".*,
  "d"."name"
from
  "firmware_rollout_domains" as "o"
  left join "domains" as "d" on "d"."id" = "o"."domain_id"
where
  "o"."rollout_id" = $1
order by
  "d"."name",
  "o"."domain_id";

-- rolloutOffersRepo.countTargetsByDomainAcrossDomains(rolloutId)
select
  "domain_id",
  "state",
  count(*) as "count"
from
  "firmware_rollout_targets"
where
  "rollout_id" = $1
group by
  "domain_id",
  "state";
