-- The SQL of src/modules/ingest/presence.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- presenceRepo.markConnectionsAcrossDomains(node, connections)
update devices
set
  connected = v.connected,
  connection_time = v.time,
  connection_node = case
    when v.connected
    or v.opened_here then $1
    else devices.connection_node
  end
from
  unnest(
    $2::text[],
    $3::boolean[],
    $4::timestamptz[],
    $5::boolean[]
  ) as v (ident, connected, time, opened_here)
where
  devices.ident = v.ident
  and (
    v.connected
    or v.opened_here
    or devices.connection_node = $6
  )
  and (
    devices.connected is distinct from v.connected
    or (
      v.connected
      and devices.connection_node is distinct from $7
    )
  )
returning
  devices.*;

-- presenceRepo.closeNodeConnectionsAcrossDomains(node, at)
update "devices"
set
  "connected" = $1,
  "connection_time" = $2
where
  "connection_node" = $3
  and "connected" = $4
returning
  *;

-- presenceRepo.forgetConnectionsAcrossDomains()
update "devices"
set
  "connected" = $1,
  "connection_time" = $2,
  "connection_node" = $3
where
  "connected" is not null;
