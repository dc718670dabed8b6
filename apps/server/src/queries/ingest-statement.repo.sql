-- The SQL of src/modules/ingest/ingest-statement.repo.ts, written by `npm run queries -w apps/server`: do not edit.
-- Each function ran once with generated arguments against a database answering no rows.

-- ingestStatementRepo.writeBatchAcrossDomains(batch)
with
  locked as (
    select
      id,
      domain_id,
      ident,
      last_contact,
      last_seq,
      seq_epoch,
      seq_offset,
      seq_prev_epoch,
      seq_prev_offset
    from
      devices
    where
      ident = any ($1::text[])
    order by
      id
    for update
      skip locked
  ),
  expected as (
    select
      *
    from
      unnest(
        $2::text[],
        $3::text[],
        $4::text[],
        $5::timestamptz[],
        $6::bigint[],
        $7::bigint[],
        $8::bigint[],
        $9::bigint[],
        $10::bigint[]
      ) as e (
        id,
        domain_id,
        ident,
        last_contact,
        last_seq,
        seq_epoch,
        seq_offset,
        seq_prev_epoch,
        seq_prev_offset
      )
  ),
  stored as (
    select
      *
    from
      unnest($11::text[], $12::text[], $13::bigint[]) as s (device_id, type, seq)
  ),
  checked as (
    select
      not exists (
        select
        from
          locked l
          full join expected e on e.id = l.id
        where
          l.id is null
          or e.id is null
          -- Node's dates hold milliseconds.
          or (
            l.domain_id,
            l.ident,
            date_trunc('milliseconds', l.last_contact),
            l.last_seq,
            l.seq_epoch,
            l.seq_offset,
            l.seq_prev_epoch,
            l.seq_prev_offset
          ) is distinct from (
            e.domain_id,
            e.ident,
            e.last_contact,
            e.last_seq,
            e.seq_epoch,
            e.seq_offset,
            e.seq_prev_epoch,
            e.seq_prev_offset
          )
      )
      and (
        $14
        or not exists (
          select
          from
            (
              select
                device_id,
                type,
                seq
              from
                device_collects
              where
                device_id = any ($15::text[])
            ) c
            full join stored s on s.device_id = c.device_id
            and s.type = c.type
          where
            c.device_id is null
            or s.device_id is null
            or c.seq <> s.seq
        )
      ) as ok
  ),
  w0 as (
    insert into
      device_collects (
        device_id,
        domain_id,
        type,
        data,
        seq,
        create_time
      )
    select
      *
    from
      unnest(
        $16::text[],
        $17::text[],
        $18::text[],
        $19::jsonb[],
        $20::bigint[],
        $21::timestamptz[]
      )
    where
      (
        select
          ok
        from
          checked
      )
    on conflict (device_id, type) do update
    set
      data = excluded.data,
      seq = excluded.seq,
      create_time = excluded.create_time
    where
      device_collects.seq < excluded.seq
  ),
  w1 as (
    insert into
      collect_history (
        domain_id,
        device_id,
        type,
        seq,
        changes,
        create_time
      )
    select
      *
    from
      unnest(
        $22::text[],
        $23::text[],
        $24::text[],
        $25::bigint[],
        $26::jsonb[],
        $27::timestamptz[]
      )
    where
      (
        select
          ok
        from
          checked
      )
    on conflict (device_id, type, seq)
    where
      seq is not null do nothing
  ),
  w2 as (
    insert into
      signal_samples (
        device_id,
        modem,
        time,
        rsrp,
        rsrq,
        sinr,
        rssi,
        csq
      )
    select
      *
    from
      unnest(
        $28::text[],
        $29::text[],
        $30::timestamptz[],
        $31::real[],
        $32::real[],
        $33::real[],
        $34::real[],
        $35::smallint[]
      )
    where
      (
        select
          ok
        from
          checked
      )
  ),
  w3 as (
    insert into
      sim_usage (
        domain_id,
        iccid,
        day,
        device_id,
        modem,
        slot,
        rx,
        tx,
        seen
      )
    select
      *
    from
      unnest(
        $36::text[],
        $37::text[],
        $38::date[],
        $39::text[],
        $40::text[],
        $41::smallint[],
        $42::bigint[],
        $43::bigint[],
        $44::timestamptz[]
      )
    where
      (
        select
          ok
        from
          checked
      )
    on conflict (domain_id, iccid, day, device_id) do update
    set
      rx = sim_usage.rx + excluded.rx,
      tx = sim_usage.tx + excluded.tx,
      modem = excluded.modem,
      slot = excluded.slot,
      seen = greatest(sim_usage.seen, excluded.seen)
  ),
  w4 as (
    insert into
      modem_changes (device_id, time, modem, changes)
    select
      *
    from
      unnest(
        $45::text[],
        $46::timestamptz[],
        $47::text[],
        $48::jsonb[]
      )
    where
      (
        select
          ok
        from
          checked
      )
  ),
  w5 as (
    insert into
      device_outages (device_id, started, ended)
    select
      *
    from
      unnest(
        $49::text[],
        $50::timestamptz[],
        $51::timestamptz[]
      )
    where
      (
        select
          ok
        from
          checked
      )
  ),
  w6 as (
    insert into
      signal_rollup_dirty (device_id, hour)
    select
      *
    from
      unnest($52::text[], $53::timestamptz[])
    where
      (
        select
          ok
        from
          checked
      )
    on conflict do nothing
  ),
  touched as (
    update devices as d
    set
      last_contact = $54,
      last_seq = greatest(d.last_seq, v.seq),
      model = coalesce(v.model, d.model),
      firmware = coalesce(v.firmware, d.firmware),
      serial = coalesce(v.serial, d.serial),
      command_types = case
        when v.model is not null then v.command_types
        else d.command_types
      end,
      signal_csq = case
        when v.has_modems then v.signal_csq
        else d.signal_csq
      end,
      network_mode = case
        when v.has_modems then v.network_mode
        else d.network_mode
      end,
      wan_up = case
        when v.has_modems then v.wan_up
        else d.wan_up
      end,
      events_total = d.events_total + v.events_added,
      -- A GPS fix places the router unless an admin pinned it (ADR 045).
      latitude = case
        when v.latitude is not null
        and d.position_source is distinct from 'admin' then v.latitude
        else d.latitude
      end,
      longitude = case
        when v.latitude is not null
        and d.position_source is distinct from 'admin' then v.longitude
        else d.longitude
      end,
      position_source = case
        when v.latitude is not null
        and d.position_source is distinct from 'admin' then 'gps'
        else d.position_source
      end
    from
      unnest(
        $55::text[],
        $56::bigint[],
        $57::text[],
        $58::text[],
        $59::text[],
        $60::boolean[],
        $61::smallint[],
        $62::text[],
        $63::boolean[],
        $64::integer[],
        $65::text[],
        $66::double precision[],
        $67::double precision[]
      ) as v (
        id,
        seq,
        model,
        firmware,
        serial,
        has_modems,
        signal_csq,
        network_mode,
        wan_up,
        events_added,
        command_types,
        latitude,
        longitude
      )
    where
      d.id = v.id
      and (
        -- Only rows that visibly change: a stale contact time, new events, board data or facets.
        d.last_contact is null
        or d.last_contact < $68
        or v.events_added > 0
        or (
          v.model is not null
          and (v.model, v.firmware, v.serial, v.command_types) is distinct from (d.model, d.firmware, d.serial, d.command_types)
        )
        or (
          v.has_modems
          and (v.signal_csq, v.network_mode, v.wan_up) is distinct from (d.signal_csq, d.network_mode, d.wan_up)
        )
        or (
          v.latitude is not null
          and d.position_source is distinct from 'admin'
          and (v.latitude, v.longitude, 'gps') is distinct from (d.latitude, d.longitude, d.position_source)
        )
      )
      and (
        select
          ok
        from
          checked
      )
    returning
      d.*
  )
select
  checked.ok as is_written,
  touched.*
from
  checked
  left join touched on true;
