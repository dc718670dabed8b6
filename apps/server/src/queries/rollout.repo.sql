-- The SQL of src/modules/firmware/rollout.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- rolloutRepo.insertRolloutAcrossDomains(row, targets)
insert into
  "firmware_rollouts" ()
values
  ();
insert into
  "firmware_rollout_targets" ("rollout_id", "update_time")
values
  ($1, $2);

-- rolloutRepo.findRollout(id)
select
  *
from
  "firmware_rollouts"
where
  "id" = $1;

-- rolloutRepo.findLatestRollout(ruleId)
select
  "id"
from
  "firmware_rollouts"
where
  "rule_id" = $1
order by
  "create_time" desc,
  "id" desc
limit
  $2;

-- rolloutRepo.lockRollout(id)
select
  *
from
  "firmware_rollouts"
where
  "id" = $1
for update;

-- rolloutRepo.updateRollout(id, changes)
update "firmware_rollouts"
set
where
  "id" = $1;

-- rolloutRepo.countTargetsAcrossDomains(id)
select
  "stage",
  "state",
  count(*) as "count",
  count(*) filter (
    where
      reason = 'offer'
  ) as "offer"
from
  "firmware_rollout_targets"
where
  "rollout_id" = $1
group by
  "stage",
  "state";

-- rolloutRepo.listFailuresAcrossDomains(id)
select
  "device_id",
  "domain_id",
  "stage",
  "reason"
from
  "firmware_rollout_targets"
where
  "rollout_id" = $1
  and "state" = $2
order by
  "device_id";

-- rolloutRepo.listSentAcrossDomains(id)
select
  "t"."device_id",
  "t"."deadline",
  "d"."firmware",
  "e"."status" as "execution_status"
from
  "firmware_rollout_targets" as "t"
  left join "devices" as "d" on "d"."id" = "t"."device_id"
  left join "command_executions" as "e" on "e"."id" = "t"."execution_id"
where
  "t"."rollout_id" = $1
  and "t"."state" = $2;

-- rolloutRepo.listWaitingLinksAcrossDomains(id, stage, afterDeviceId, limit)
select
  "t"."device_id",
  "t"."domain_id",
  "t"."reason",
  "d"."signal_csq",
  "c"."data" as "modems"
from
  "firmware_rollout_targets" as "t"
  left join "devices" as "d" on "d"."id" = "t"."device_id"
  left join "device_collects" as "c" on "c"."device_id" = "t"."device_id"
  and "c"."type" = $1
where
  "t"."rollout_id" = $2
  and "t"."state" = $3
  and "t"."stage" <= $4
  and "t"."device_id" > $5
order by
  "t"."device_id"
limit
  $6;

-- rolloutRepo.listHeldLinksAcrossDomains(id, linkStage)
select
  "t"."device_id",
  "t"."domain_id",
  "t"."reason",
  "d"."signal_csq",
  "c"."data" as "modems"
from
  "firmware_rollout_targets" as "t"
  left join "devices" as "d" on "d"."id" = "t"."device_id"
  left join "device_collects" as "c" on "c"."device_id" = "t"."device_id"
  and "c"."type" = $1
where
  "t"."rollout_id" = $2
  and "t"."state" = $3
  and (
    "t"."reason" is not null
    or "t"."stage" = $4
  );

-- rolloutRepo.setHoldAcrossDomains(id, deviceIds, reason, now)
update "firmware_rollout_targets"
set
  "reason" = $1,
  "update_time" = $2
where
  "rollout_id" = $3
  and "state" = $4
  and "device_id" in ($5);

-- rolloutRepo.countHeldAcrossDomains(id)
select
  "reason",
  count(*) as "count"
from
  "firmware_rollout_targets"
where
  "rollout_id" = $1
  and "state" = $2
  and "reason" is not null
group by
  "reason";

-- rolloutRepo.moveTargetAcrossDomains(id, deviceId, changes)
update "firmware_rollout_targets"
set
where
  "rollout_id" = $1
  and "device_id" = $2;

-- rolloutRepo.skipWaitingAcrossDomains(id, reason, now)
update "firmware_rollout_targets"
set
  "state" = $1,
  "reason" = $2,
  "update_time" = $3
where
  "rollout_id" = $4
  and "state" = $5;

-- rolloutRepo.retryFailedAcrossDomains(id, now)
update "firmware_rollout_targets"
set
  "state" = $1,
  "reason" = $2,
  "command_id" = $3,
  "execution_id" = $4,
  "deadline" = $5,
  "update_time" = $6
where
  "rollout_id" = $7
  and "state" = $8;

-- rolloutRepo.firstOpenStageAcrossDomains(id)
select
  min(stage) as "stage"
from
  "firmware_rollout_targets"
where
  "rollout_id" = $1
  and "state" in ($2, $3);
