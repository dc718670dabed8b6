-- The SQL of src/modules/licences/licences.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- licencesRepo.listLicenses()
select
  *
from
  "licenses"
order by
  "create_time",
  "id";

-- licencesRepo.listLicensesAfter(after, limit)
select
  *
from
  "licenses" as "l"
where
  (
    l.create_time > (
      select
        k.create_time
      from
        licenses k
      where
        k.id = $1
    )
    or (
      l.create_time = (
        select
          k.create_time
        from
          licenses k
        where
          k.id = $2
      )
      and l.id > $3
    )
  )
order by
  "l"."create_time",
  "l"."id"
limit
  $4;

-- licencesRepo.findLicense(id)
select
  *
from
  "licenses"
where
  "id" = $1;

-- licencesRepo.findLicenseByKey(key)
select
  *
from
  "licenses"
where
  "key" = $1;

-- licencesRepo.insertLicense(row)
insert into
  "licenses" ("refreshing")
values
  ($1)
on conflict ("key") do nothing
returning
  "id";

-- licencesRepo.markRefreshing(ids)
update "licenses"
set
  "refreshing" = $1
where
  "id" in ($2);

-- licencesRepo.saveDocument(id, document, at)
update "licenses"
set
  "document" = $1,
  "signature" = $2,
  "last_error" = $3,
  "refreshing" = $4,
  "check_time" = $5,
  "update_time" = $6,
  "activation_date" = coalesce("activation_date", $7)
where
  "id" = $8;

-- licencesRepo.saveError(id, error, at)
update "licenses"
set
  "last_error" = $1,
  "refreshing" = $2,
  "check_time" = $3
where
  "id" = $4;

-- licencesRepo.countDevicesAcrossDomains()
select
  count(*) as "count"
from
  "devices";
-- (ended: Error: no result)
