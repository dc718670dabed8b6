-- The SQL of src/modules/files/file-transfers.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- fileTransfersRepo.insertTransfer(domainId, row)
insert into
  "file_transfers" ("domain_id")
values
  ($1);

-- fileTransfersRepo.findTransferAcrossDomains(transferId)
select
  *
from
  "file_transfers"
where
  "id" = $1;

-- fileTransfersRepo.lockTransfer(domainId, transferId)
select
  *
from
  "file_transfers"
where
  "domain_id" = $1
  and "id" = $2
for update;

-- fileTransfersRepo.moveTransfer(domainId, transferId, from, to)
update "file_transfers"
set
where
  "domain_id" = $1
  and "id" = $2
  and "state" = $3;

-- fileTransfersRepo.findFileAcrossDomains(fileId)
select
  "id",
  "domain_id",
  "status",
  "device_id"
from
  "files"
where
  "id" = $1;

-- fileTransfersRepo.findSoftwareFile(key)
select
  "filename",
  "size",
  "sha256"
from
  "software_rules"
where
  "file_key" = $1
  and "status" = $2;

-- fileTransfersRepo.findDeviceDomainAcrossDomains(deviceId)
select
  "domain_id"
from
  "devices"
where
  "id" = $1;

-- fileTransfersRepo.findLapsedTransfersAcrossDomains(before, limit)
select
  "id",
  "domain_id"
from
  "file_transfers"
where
  "state" in ($1, $2)
  and "expires_at" < $3
order by
  "expires_at"
limit
  $4;

-- fileTransfersRepo.deleteFinishedTransfersAcrossDomains(before)
delete from "file_transfers"
where
  "state" in ($1, $2, $3)
  and "create_time" < $4;
