-- The SQL of src/modules/actions/commands.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- commandsRepo.insertCommand(domainId, row)
insert into
  "commands" ("domain_id")
values
  ($1);

-- commandsRepo.findCommandIdsWithinTagScope(domainId, ids, tagScope)
select
  "id"
from
  "commands"
where
  "domain_id" = $1
  and "id" in ($2)
  and (
    exists (
      select
        1
      from
        command_executions e0
      where
        e0.command_id = "commands"."id"
    )
    and not exists (
      select
        1
      from
        command_executions e
        join devices d on d.id = e.device_id
        and d.domain_id = e.domain_id
      where
        e.command_id = "commands"."id"
        and not ("d"."tags" ?| $3::text[])
    )
  );

-- commandsRepo.findCommand(domainId, id, tagScope)
select
  *
from
  "commands"
where
  "domain_id" = $1
  and "id" = $2
  and (
    exists (
      select
        1
      from
        command_executions e0
      where
        e0.command_id = "commands"."id"
    )
    and not exists (
      select
        1
      from
        command_executions e
        join devices d on d.id = e.device_id
        and d.domain_id = e.domain_id
      where
        e.command_id = "commands"."id"
        and not ("d"."tags" ?| $3::text[])
    )
  );

-- commandsRepo.lockCommand(domainId, id, tagScope)
select
  *
from
  "commands"
where
  "domain_id" = $1
  and "id" = $2
  and (
    exists (
      select
        1
      from
        command_executions e0
      where
        e0.command_id = "commands"."id"
    )
    and not exists (
      select
        1
      from
        command_executions e
        join devices d on d.id = e.device_id
        and d.domain_id = e.domain_id
      where
        e.command_id = "commands"."id"
        and not ("d"."tags" ?| $3::text[])
    )
  )
for update;

-- commandsRepo.lockCommandCounts(domainId, ids)
select
  "id",
  "counts"
from
  "commands"
where
  "domain_id" = $1
  and "id" in ($2)
order by
  "id"
for update;

-- commandsRepo.findCommands(domainId, filter, limit, offset)
select
  *
from
  "commands"
where
  "domain_id" = $1
order by
  "create_time" desc,
  "id"
limit
  $2
offset
  $3;

-- commandsRepo.findCommandsAfter(domainId, filter, after, limit)
select
  *
from
  "commands" as "c"
where
  "c"."domain_id" = $1
  and (
    c.create_time < (
      select
        k.create_time
      from
        commands k
      where
        k.domain_id = $2
        and k.id = $3
    )
    or (
      c.create_time = (
        select
          k.create_time
        from
          commands k
        where
          k.domain_id = $4
          and k.id = $5
      )
      and c.id > $6
    )
  )
order by
  "c"."create_time" desc,
  "c"."id"
limit
  $7;

-- commandsRepo.updateCommand(domainId, id, changes)
update "commands"
set
where
  "domain_id" = $1
  and "id" = $2;

-- commandsRepo.setCommandCounts(domainId, id, counts, status, now)
update "commands"
set
  "counts" = $1,
  "status" = $2,
  "update_time" = $3
where
  "domain_id" = $4
  and "id" = $5;

-- commandsRepo.findFileRouter(domainId, fileId)
select
  "device_id"
from
  "files"
where
  "domain_id" = $1
  and "id" = $2;

-- commandsRepo.findTargetDevices(domainId, targets, tagScope)
select
  "id",
  "ident",
  "tags",
  "last_contact",
  "connected",
  "model",
  "serial",
  "firmware",
  "description",
  "command_types"
from
  "devices"
where
  "domain_id" = $1
  and ("tags" ?| $2::text[])
  and (
    "id" in ($3)
    or tags ?| $4::text[]
  )
order by
  "ident";

-- commandsRepo.findMostUsedTypes(domainId, limit)
select
  "type",
  count(*) as "uses"
from
  "commands"
where
  "domain_id" = $1
group by
  "type"
order by
  "uses" desc,
  "type"
limit
  $2;

-- commandsRepo.insertPersonEvent(domainId, row)
insert into
  "events" ("domain_id", "device_id", "is_quiet", "is_read")
values
  ($1, $2, $3, $4);

-- commandsRepo.findCommandTypes(domainId)
select
  *
from
  "command_types"
where
  "domain_id" = $1
order by
  "type";

-- commandsRepo.findCommandTypeByName(domainId, type)
select
  *
from
  "command_types"
where
  "domain_id" = $1
  and lower(type) = $2;

-- commandsRepo.insertCommandType(domainId, row)
insert into
  "command_types" ("domain_id")
values
  ($1);

-- commandsRepo.deleteCommandType(domainId, id)
delete from "command_types"
where
  "domain_id" = $1
  and "id" = $2;
