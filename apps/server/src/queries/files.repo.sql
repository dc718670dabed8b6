-- The SQL of src/modules/files/files.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- filesRepo.listCommonFiles(domainId, fileType)
select
  "files"."id",
  "files"."domain_id",
  "files"."file_type",
  "files"."filename",
  "files"."size",
  "files"."sha256",
  "files"."status",
  "files"."user_id",
  "files"."device_id",
  "files"."command_id",
  "files"."execution_id",
  "files"."repeats",
  "files"."repeat_time",
  "files"."create_time",
  "users"."username" as "user_name"
from
  "files"
  left join "users" on "users"."id" = "files"."user_id"
where
  "files"."domain_id" = $1
  and "files"."device_id" is null
  and "files"."file_type" = $2
order by
  "files"."create_time" desc,
  "files"."id";

-- filesRepo.listDeviceFiles(domainId, deviceId, filter)
select
  "files"."id",
  "files"."domain_id",
  "files"."file_type",
  "files"."filename",
  "files"."size",
  "files"."sha256",
  "files"."status",
  "files"."user_id",
  "files"."device_id",
  "files"."command_id",
  "files"."execution_id",
  "files"."repeats",
  "files"."repeat_time",
  "files"."create_time",
  "users"."username" as "user_name"
from
  "files"
  left join "users" on "users"."id" = "files"."user_id"
where
  "files"."domain_id" = $1
  and "files"."device_id" = $2
  and "files"."command_id" = $3
order by
  "files"."create_time" desc,
  "files"."id";

-- filesRepo.listFilesAfter(domainId, scope, after, limit)
select
  "files"."id",
  "files"."domain_id",
  "files"."file_type",
  "files"."filename",
  "files"."size",
  "files"."sha256",
  "files"."status",
  "files"."user_id",
  "files"."device_id",
  "files"."command_id",
  "files"."execution_id",
  "files"."repeats",
  "files"."repeat_time",
  "files"."create_time",
  "users"."username" as "user_name"
from
  "files"
  left join "users" on "users"."id" = "files"."user_id"
where
  "files"."domain_id" = $1
  and "files"."device_id" = $2
  and "files"."command_id" = $3
  and (
    files.create_time < (
      select
        k.create_time
      from
        files k
      where
        k.domain_id = $4
        and k.id = $5
    )
    or (
      files.create_time = (
        select
          k.create_time
        from
          files k
        where
          k.domain_id = $6
          and k.id = $7
      )
      and files.id > $8
    )
  )
order by
  "files"."create_time" desc,
  "files"."id"
limit
  $9;

-- filesRepo.findFile(domainId, fileId)
select
  "files"."id",
  "files"."domain_id",
  "files"."file_type",
  "files"."filename",
  "files"."size",
  "files"."sha256",
  "files"."status",
  "files"."user_id",
  "files"."device_id",
  "files"."command_id",
  "files"."execution_id",
  "files"."repeats",
  "files"."repeat_time",
  "files"."create_time",
  "users"."username" as "user_name"
from
  "files"
  left join "users" on "users"."id" = "files"."user_id"
where
  "files"."domain_id" = $1
  and "files"."id" = $2;

-- filesRepo.lockFiles(domainId, fileIds)
select
  *
from
  "files"
where
  "domain_id" = $1
  and "id" in ($2)
order by
  "id"
for update;

-- filesRepo.hasCommonFileNamed(domainId, fileType, filename)
select
  "id"
from
  "files"
where
  "domain_id" = $1
  and "device_id" is null
  and "file_type" = $2
  and lower(filename) = $3;

-- filesRepo.insertFile(domainId, row)
insert into
  "files" ("domain_id")
values
  ($1);

-- filesRepo.renameFile(domainId, fileId, filename)
update "files"
set
  "filename" = $1
where
  "domain_id" = $2
  and "id" = $3;

-- filesRepo.deleteFiles(domainId, fileIds)
delete from "files"
where
  "domain_id" = $1
  and "id" in ($2);

-- filesRepo.listDeviceCopies(domainId, deviceId, fileType)
select
  "id",
  "status",
  "sha256",
  "create_time"
from
  "files"
where
  "domain_id" = $1
  and "device_id" = $2
  and "file_type" = $3
order by
  "create_time" desc,
  "id" desc;

-- filesRepo.listDeviceCopiesWithRule(domainId, deviceId, fileType)
select
  "files"."id",
  "files"."status",
  "r"."id" as "rule_id",
  "r"."copies" as "rule_copies"
from
  "files"
  left join "commands" as "c" on "c"."id" = "files"."command_id"
  and "c"."domain_id" = $1
  left join "schedule_rules" as "r" on "r"."id" = "c"."schedule_rule_id"
  and "r"."domain_id" = $2
where
  "files"."domain_id" = $3
  and "files"."device_id" = $4
  and "files"."file_type" = $5
order by
  "files"."create_time" desc,
  "files"."id" desc;

-- filesRepo.findNewestGoodCopy(domainId, deviceId, fileType)
select
  "id",
  "status",
  "sha256",
  "create_time"
from
  "files"
where
  "domain_id" = $1
  and "device_id" = $2
  and "file_type" = $3
  and "status" = $4
order by
  "create_time" desc,
  "id" desc
limit
  $5;

-- filesRepo.noteRepeat(domainId, fileId, at)
update "files"
set
  "repeats" = "repeats" + $1,
  "repeat_time" = $2
where
  "domain_id" = $3
  and "id" = $4;

-- filesRepo.findDevicesWithCopies(domainId, fileType)
select distinct
  "device_id"
from
  "files"
where
  "domain_id" = $1
  and "file_type" = $2
  and "device_id" is not null;

-- filesRepo.findDeviceFileIds(domainId, deviceIds)
select
  "id"
from
  "files"
where
  "domain_id" = $1
  and "device_id" in ($2);

-- filesRepo.refreshDeviceFileFlags(domainId, deviceIds)
update "devices"
set
  "has_backups" = exists (
    select
      1
    from
      files
    where
      files.domain_id = $1
      and files.device_id = devices.id
      and files.file_type = $2
      and files.status = 'completed'
  ),
  "has_journals" = exists (
    select
      1
    from
      files
    where
      files.domain_id = $3
      and files.device_id = devices.id
      and files.file_type = $4
      and files.status = 'completed'
  )
where
  "domain_id" = $5
  and "id" in ($6);

-- filesRepo.findDevice(domainId, deviceId)
select
  "id",
  "ident"
from
  "devices"
where
  "domain_id" = $1
  and "id" = $2;

-- filesRepo.lockDevice(domainId, deviceId)
select
  "id"
from
  "devices"
where
  "domain_id" = $1
  and "id" = $2
for update;

-- filesRepo.findCopiesSetting(domainId)
select
  "settings"
from
  "domains"
where
  "id" = $1;
