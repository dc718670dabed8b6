-- The SQL of src/modules/insight/declines.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- declinesRepo.findSignalWindows(domainId, start, mid, end, tagScope)
select
  r.device_id,
  d.ident,
  r.modem,
  sum(
    case
      when r.hour >= $1 then r.rsrp_sum
    end
  ) / nullif(
    sum(
      case
        when r.hour >= $2 then r.rsrp_n
      end
    ),
    0
  ) as rsrp_now,
  sum(
    case
      when r.hour < $3 then r.rsrp_sum
    end
  ) / nullif(
    sum(
      case
        when r.hour < $4 then r.rsrp_n
      end
    ),
    0
  ) as rsrp_before,
  sum(
    case
      when r.hour >= $5 then r.rssi_sum
    end
  ) / nullif(
    sum(
      case
        when r.hour >= $6 then r.rssi_n
      end
    ),
    0
  ) as rssi_now,
  sum(
    case
      when r.hour < $7 then r.rssi_sum
    end
  ) / nullif(
    sum(
      case
        when r.hour < $8 then r.rssi_n
      end
    ),
    0
  ) as rssi_before
from
  devices d
  join signal_rollups r on r.device_id = d.id
  and r.hour >= $9
  and r.hour < $10
where
  d.domain_id = $11
  and ("d"."tags" ?| $12::text[])
group by
  r.device_id,
  d.ident,
  r.modem;
