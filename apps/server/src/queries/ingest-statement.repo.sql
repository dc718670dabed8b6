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
  ev as (
    insert into
      events (
        domain_id,
        device_id,
        seq,
        kind,
        level,
        message,
        details,
        device_time,
        create_time,
        is_read,
        is_quiet
      )
    select
      *
    from
      unnest(
        $16::text[],
        $17::text[],
        $18::bigint[],
        $19::text[],
        $20::text[],
        $21::text[],
        $22::jsonb[],
        $23::timestamptz[],
        $24::timestamptz[],
        $25::boolean[],
        $26::boolean[]
      )
    where
      (
        select
          ok
        from
          checked
      )
    on conflict (device_id, seq)
    where
      seq is not null do nothing
    returning
      id,
      device_id,
      seq,
      is_quiet
  ),
  added as (
    select
      device_id,
      count(*)::integer as n
    from
      ev
    where
      not is_quiet
    group by
      device_id
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
        $27::text[],
        $28::text[],
        $29::text[],
        $30::jsonb[],
        $31::bigint[],
        $32::timestamptz[]
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
        $33::text[],
        $34::text[],
        $35::text[],
        $36::bigint[],
        $37::jsonb[],
        $38::timestamptz[]
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
        $39::text[],
        $40::text[],
        $41::timestamptz[],
        $42::real[],
        $43::real[],
        $44::real[],
        $45::real[],
        $46::smallint[]
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
        $47::text[],
        $48::text[],
        $49::date[],
        $50::text[],
        $51::text[],
        $52::smallint[],
        $53::bigint[],
        $54::bigint[],
        $55::timestamptz[]
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
        $56::text[],
        $57::timestamptz[],
        $58::text[],
        $59::jsonb[]
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
        $60::text[],
        $61::timestamptz[],
        $62::timestamptz[]
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
      unnest($63::text[], $64::timestamptz[])
    where
      (
        select
          ok
        from
          checked
      )
    on conflict do nothing
  ),
  w7 as (
    insert into
      jobs (
        id,
        kind,
        domain_id,
        payload,
        sealed,
        state,
        run_at,
        max_attempts,
        dedupe_key,
        create_time
      )
    select
      j.id,
      j.kind,
      null,
      jsonb_build_object(
        'connected',
        $65::jsonb,
        'events',
        coalesce(
          (
            select
              jsonb_agg(
                id::text
                order by
                  id
              )
            from
              ev
            where
              not is_quiet
          ),
          '[]'::jsonb
        )
      ),
      null,
      'queued',
      $66,
      j.max_attempts,
      null,
      $67
    from
      unnest($68::text[], $69::text[], $70::integer[]) as j (id, kind, max_attempts)
    where
      (
        select
          ok
        from
          checked
      )
      and (
        $71
        or exists (
          select
          from
            ev
          where
            not is_quiet
        )
      )
  ),
  touched as (
    update devices as d
    set
      last_contact = $72,
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
      (
        select
          u.*,
          coalesce(a.n, 0) as events_added
        from
          unnest(
            $73::text[],
            $74::bigint[],
            $75::text[],
            $76::text[],
            $77::text[],
            $78::boolean[],
            $79::smallint[],
            $80::text[],
            $81::boolean[],
            $82::integer[],
            $83::text[],
            $84::double precision[],
            $85::double precision[]
          ) as u (
            id,
            seq,
            model,
            firmware,
            serial,
            has_modems,
            signal_csq,
            network_mode,
            wan_up,
            events_sent,
            command_types,
            latitude,
            longitude
          )
          left join added a on a.device_id = u.id
      ) as v
    where
      d.id = v.id
      and (
        -- Only rows that visibly change: a stale contact time, new events, board data or facets.
        d.last_contact is null
        or d.last_contact < $86
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
  (
    select
      coalesce(
        jsonb_agg(jsonb_build_array(id::text, device_id, seq::text)),
        '[]'::jsonb
      )
    from
      ev
  ) as inserted_events,
  touched.*
from
  checked
  left join touched on true;
