#!/bin/sh
# The Cellfleet agent for OpenWrt (agents/openwrt/README.md): connects to the console's broker as
# docs/device-protocol.md says, reports the router's state, raises events and runs commands.
#
# Two connections (docs/device-protocol.md 2, ADR 030): mosquitto_sub stays connected as the ident, in a
# persistent session, and listens for commands; what the agent sends goes out on a second connection
# as `{ident}-p`, one mosquitto_pub per message, which returns once the broker acknowledged it. Each
# start of the listener makes sure of the session's subscription first, then says hello. The
# listener also hears `tunnel_open` (4.7), which tunnel.sh carries.

# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2016 # jq programs are single-quoted on purpose
# shellcheck disable=SC3045 # BusyBox ash (the only shell the agent runs on) has read -t

# shellcheck source=lib.sh
. "${CELLFLEET_LIB:-/usr/lib/cellfleet}/lib.sh"
# shellcheck source=collect.sh
. "$CF_LIB/collect.sh"
# shellcheck source=modems.sh
. "$CF_LIB/modems.sh"
CF_IS_MAIN=1
CF_OUTBOX="$CF_RUN/out"
CF_QUEUE_MAX=300
CF_COMMAND_TYPES='["shell","reboot","factory_reset","download","pkg_install","fw_update","journal","backup","restore"]'

cf_setup() {
	mkdir -p "$CF_STATE" "$CF_RUN" "$CF_SPOOL" "$CF_OUTBOX" "$CF_RUN/cmd" "$CF_RUN/after" "$CF_RUN/xdg"
	chmod 700 "$CF_RUN"
	[ -p "$CF_FIFO" ] || { rm -f "$CF_FIFO" && mkfifo "$CF_FIFO"; }
	exec 3<>"$CF_FIFO"
	# seq: a reserved high-water mark on flash, written every 1000 numbers (5.1).
	[ -s "$CF_STATE/epoch" ] || date +%s >"$CF_STATE/epoch"
	CF_EPOCH=$(cf_read "$CF_STATE/epoch" 0)
	CF_SEQ=$(cf_read "$CF_STATE/seq" 0)
	CF_SEQ_MAX=$((CF_SEQ + 1000))
	echo "$CF_SEQ_MAX" >"$CF_STATE/seq"
	CF_INTERVAL=$(cf_cfg interval 60)
	[ "$CF_INTERVAL" -ge 10 ] 2>/dev/null || CF_INTERVAL=60
	CF_BACKOFF=0
	cf_keys_sweep
}

# Session keys a tunnel left authorised when the agent or the router stopped under it (tunnel.sh
# removes its own): a key is needed only while the console signs in, so none outlives a restart.
cf_keys_sweep() {
	cf_keys=$(cf_cfg authorized_keys /etc/dropbear/authorized_keys)
	grep -q ' cellfleet-session-[A-Za-z0-9_-]*$' "$cf_keys" 2>/dev/null || return 0
	grep -v ' cellfleet-session-[A-Za-z0-9_-]*$' "$cf_keys" >"$cf_keys.cellfleet"
	cat "$cf_keys.cellfleet" >"$cf_keys"
	rm -f "$cf_keys.cellfleet"
}

# Who the agent connects as: ident and key, or a zero-touch join (2, "Zero-touch join").
cf_credentials() {
	CF_IDENT=$(cf_cfg ident)
	cf_key=$(cf_cfg key)
	cf_secret=$(cf_cfg zt_secret)
	if [ -n "$cf_secret" ] && [ -z "$cf_key" ]; then
		cf_model=$(cf_board_model | tr -d ':' | cut -c1-64)
		cf_serial=$(cf_serial | tr -d ':' | cut -c1-64)
		[ -n "$CF_IDENT" ] || CF_IDENT=$(printf '%s%s' "$cf_model" "$cf_serial" | tr -cd 'A-Za-z0-9' | cut -c1-64)
		# The key the console gives a router once it joined; the publishing connection uses it from the start.
		cf_zt_key=$(cf_hmac "$cf_secret" "cellfleet/zt1/key/$CF_IDENT")
		CF_TOKEN=$(cf_hmac "$cf_zt_key" "cellfleet/v1/$CF_IDENT")
		if [ -e "$CF_STATE/joined" ]; then
			cf_key=$cf_zt_key
		else
			cf_imei=$(collect_modems | jq -r '[.modems[].imei | select(. != null)] | first // ""')
			CF_USER="zt1:$(cf_cfg zt_key_id):$cf_model:$cf_serial:$cf_imei"
			CF_PASS=$(cf_hmac "$cf_secret" "cellfleet/zt1/$CF_IDENT/$CF_USER")
		fi
	fi
	if [ -n "$cf_key" ]; then
		CF_USER=$CF_IDENT
		CF_PASS=$(cf_hmac "$cf_key" "cellfleet/v1/$CF_IDENT")
		CF_TOKEN=$CF_PASS
	fi
	if [ -z "$CF_IDENT" ] || [ -z "${CF_PASS:-}" ]; then
		cf_log err "no ident and key (or zero-touch secret) in /etc/config/cellfleet"
		exit 1
	fi
	cf_broker "$(cf_cfg broker)"
}

# Writes the mosquitto clients' options files (so the password never shows in ps) for a broker URL:
# mosquitto_sub as the ident in a persistent session (-c), mosquitto_pub as `{ident}-p` with the same
# token.
cf_broker() {
	cf_rest=${1#*://}
	cf_host=${cf_rest%%[:/]*}
	cf_port=$(printf '%s' "$cf_rest" | sed -n 's/^[^:]*:\([0-9]*\).*/\1/p')
	cf_opts="$CF_RUN/xdg/options"
	{
		printf -- '-h %s\n-V mqttv311\n-k 60\n-q 1\n' "$cf_host"
		case "$1" in
		mqtts://*)
			printf -- '-p %s\n' "${cf_port:-8883}"
			cf_ca=$(cf_cfg ca_file)
			if [ -n "$cf_ca" ]; then printf -- '--cafile %s\n' "$cf_ca"; else printf -- '--capath /etc/ssl/certs\n'; fi
			;;
		*) printf -- '-p %s\n' "${cf_port:-1883}" ;;
		esac
	} >"$cf_opts"
	umask 077
	{ cat "$cf_opts" && printf -- '-i %s\n-u %s\n-P %s\n-c\n' "$CF_IDENT" "$CF_USER" "$CF_PASS"; } >"$CF_RUN/xdg/mosquitto_sub"
	{ cat "$cf_opts" && printf -- '-i %s-p\n-u %s-p\n-P %s\n' "$CF_IDENT" "$CF_IDENT" "$CF_TOKEN"; } >"$CF_RUN/xdg/mosquitto_pub"
	umask 022
	rm -f "$cf_opts"
	export XDG_CONFIG_HOME="$CF_RUN/xdg"
}

# Numbers what the collectors, commands and hotplug left in the spool and moves it to the outbox.
cf_number() {
	for cf_msg in "$CF_SPOOL"/*.msg; do
		[ -e "$cf_msg" ] || break
		{ read -r cf_topic && read -r cf_body; } <"$cf_msg"
		CF_SEQ=$((CF_SEQ + 1))
		if [ "$CF_SEQ" -ge "$CF_SEQ_MAX" ]; then
			CF_SEQ_MAX=$((CF_SEQ + 1000))
			echo "$CF_SEQ_MAX" >"$CF_STATE/seq"
		fi
		cf_file="$CF_OUTBOX/$(printf '%015d' "$CF_SEQ")"
		printf '%s\n' "$cf_topic" >"$cf_file.topic"
		printf '{"v":1,"seq":%s,"epoch":%s,%s\n' "$CF_SEQ" "$CF_EPOCH" "${cf_body#\{}" >"$cf_file.json"
		rm -f "$cf_msg"
	done
	# A full queue drops the oldest collects first, keeping events and statuses (5.2).
	cf_count=$(find "$CF_OUTBOX" -name '*.json' | wc -l)
	if [ "$cf_count" -gt "$CF_QUEUE_MAX" ]; then
		grep -l '^collect/' "$CF_OUTBOX"/*.topic | head -n $((cf_count - CF_QUEUE_MAX)) | while read -r cf_t; do
			rm -f "$cf_t" "${cf_t%.topic}.json"
		done
	fi
}

cf_pub() { # cf_pub TOPIC_SUFFIX FILE: returns once the broker acknowledged it
	timeout 30 mosquitto_pub -t "cellfleet/v1/$CF_IDENT/$1" -f "$2" 2>>"$CF_RUN/mqtt.err"
}

# The listener: mosquitto_sub, kept running in a persistent session (QoS 1), so the broker keeps a
# command that comes while it reconnects by itself or is started again. A first mosquitto_sub -E
# makes sure of the session and its subscriptions (it exits once subscribed, 0; otherwise refused or
# unreachable), so that whatever the hello brings back is kept for the listener. Then hello is due.
# Each line the listener writes is `TOPIC PAYLOAD` (-v): commands and tunnel_open.
cf_sub_start() {
	cf_topic="cellfleet/v1/$CF_IDENT/command"
	cf_tunnels="cellfleet/v1/$CF_IDENT/tunnel"
	timeout 30 mosquitto_sub -v -E -t "$cf_topic" -t "$cf_tunnels" >&3 2>"$CF_RUN/sub.err"
	cf_rc=$?
	cat "$CF_RUN/sub.err" >>"$CF_RUN/mqtt.err"
	# A refused subscription (SUBACK 0x80) still ends -E with 0: "All subscription requests were denied."
	[ "$cf_rc" = 0 ] && ! grep -q denied "$CF_RUN/sub.err"
	cf_rc=$?
	rm -f "$CF_RUN/sub.err"
	[ "$cf_rc" = 0 ] || return 1
	mosquitto_sub -v -t "$cf_topic" -t "$cf_tunnels" >&3 2>>"$CF_RUN/mqtt.err" &
	CF_SUB=$!
	CF_ONLINE=
}

cf_sub_stop() {
	[ -n "${CF_SUB:-}" ] || return 0
	kill "$CF_SUB" 2>/dev/null
	wait "$CF_SUB" 2>/dev/null
	CF_SUB=
}

# Sends the outbox, hello first after every start of the listener; 1 when the broker
# cannot be reached or refused the publishing connection.
cf_flush() {
	if [ -z "${CF_ONLINE:-}" ]; then
		cf_hello >"$CF_RUN/hello.json" || return 1
		cf_pub hello "$CF_RUN/hello.json" || return 1
		CF_ONLINE=1
		[ -n "$(cf_cfg zt_secret)" ] && [ -z "$(cf_cfg key)" ] && : >"$CF_STATE/joined"
		if [ ! -e "$CF_RUN/booted" ]; then
			: >"$CF_RUN/booted"
			cf_reason=$(cf_read "$CF_STATE/boot-reason" unknown)
			rm -f "$CF_STATE/boot-reason"
			cf_event router_started info "Router started (agent $CF_VERSION)" \
				"$(jq -cn --arg r "$cf_reason" --arg f "$(cf_firmware)" '{reason: $r, firmware: $f}')"
			cf_number
		fi
	fi
	for cf_file in "$CF_OUTBOX"/*.json; do
		[ -e "$cf_file" ] || break
		cf_topic=$(cf_read "${cf_file%.json}.topic" "")
		cf_pub "$cf_topic" "$cf_file" || return 1
		rm -f "$cf_file" "${cf_file%.json}.topic"
	done
}

cf_hello() {
	CF_SEQ=$((CF_SEQ + 1))
	[ "$CF_SEQ" -lt "$CF_SEQ_MAX" ] || { CF_SEQ_MAX=$((CF_SEQ + 1000)) && echo "$CF_SEQ_MAX" >"$CF_STATE/seq"; }
	collect_board | jq -c --argjson seq "$CF_SEQ" --argjson epoch "$CF_EPOCH" --argjson ts "$(cf_now_ms)" \
		--arg agent "$CF_VERSION" --argjson modems "$(cat "$CF_RUN/last-modems.json" 2>/dev/null || echo '{}')" \
		--argjson types "$CF_COMMAND_TYPES" '{v: 1, seq: $seq, epoch: $epoch, ts: $ts, vendor, model,
		firmware, serial, uptime, agent_version: $agent, modem_count: ($modems.modems // [] | length),
		command_types: $types}'
}

# Collects every type, raising events for what changed since the last time.
cf_collect() {
	cf_ts=$(cf_now_ms)
	for cf_type in board interfaces routing modems ethernets tunnels; do
		cf_body=$("collect_$cf_type") || continue
		[ -n "$cf_body" ] || continue
		# Events come from routing, tunnels and modems only (one jq run each, so not for the others).
		case "$cf_type" in routing | tunnels | modems)
			[ -e "$CF_RUN/last-$cf_type.json" ] && cf_changes "$cf_type" "$cf_body"
			;;
		esac
		printf '%s\n' "$cf_body" >"$CF_RUN/last-$cf_type.json"
		cf_spool "collect/$cf_type" "{\"ts\":$cf_ts,${cf_body#\{}"
	done
}

cf_changes() { # cf_changes TYPE NEW_BODY: events from the difference with the last collect
	jq -c --argjson new "$2" --arg type "$1" '. as $old | if $type == "routing" then
		([$old.routes[] | select(.is_default) | .interface] | first // null) as $from
		| ([$new.routes[] | select(.is_default) | .interface] | first // null) as $to
		| select($from != $to) | {kind: "default_route_changed", level: "warning",
			message: "Default route moved from \($from // "none") to \($to // "none")", details: {from: $from, to: $to}}
	elif $type == "tunnels" then $new.tunnels[] as $t | ($old.tunnels[] | select(.name == $t.name)) as $o
		| select($o.state != $t.state) | {kind: "tunnel_status", level: (if $t.state == "up" then "info" else "warning" end),
			message: "Tunnel \($t.name) is \($t.state)", details: {tunnel: $t.name, kind: $t.kind, state: $t.state}}
	elif $type == "modems" then $new.modems[] as $m | ($old.modems[] | select(.id == $m.id)) as $o
		| select($o.sim != $m.sim or ($o.iccid != $m.iccid and $m.iccid != null)) | {kind: "sim_switched", level: "warning",
			message: "Modem \($m.id) switched from SIM \($o.sim) to SIM \($m.sim)",
			details: {modem: $m.id, from_sim: $o.sim, to_sim: $m.sim, operator: $m.operator}}
	else empty end' "$CF_RUN/last-$1.json" 2>/dev/null | while read -r cf_ev; do
		cf_spool event "{\"ts\":$(cf_now_ms),${cf_ev#\{}"
	done
}

# A command from the broker (6): a repeat gets its latest status again, an expired one 124, an
# unreadable one 127 when its id can be read; the rest is accepted and run by commands.sh.
cf_command() {
	cf_head=$(printf '%s\n' "$1" | jq -r '[(.id // "" | tostring), (.type // ""), (.run_until // 0)] | @tsv' 2>/dev/null)
	cf_id=$(printf '%s' "$cf_head" | cut -f1)
	printf '%s' "$cf_id" | grep -qE '^[A-Za-z0-9_-]{1,64}$' || return 0
	if [ -e "$CF_RUN/cmd/$cf_id.status" ]; then
		cf_last=$(cat "$CF_RUN/cmd/$cf_id.status")
		cf_spool "command/$cf_id/status" "{\"ts\":$(cf_now_ms),${cf_last#*,}"
		return 0
	fi
	cf_body() { jq -cn --arg id "$cf_id" --arg s "$1" --argjson c "$2" --arg o "$3" --argjson ts "$(cf_now_ms)" \
		'{ts: $ts, id: $id, state: $s, code: $c, output: $o}'; }
	if [ -z "$cf_head" ]; then
		cf_s=$(cf_body failed 127 "unreadable command")
	elif [ "$(printf '%s' "$cf_head" | cut -f3)" -gt 0 ] && [ "$(cf_now_ms)" -gt "$(printf '%s' "$cf_head" | cut -f3)" ]; then
		cf_s=$(cf_body failed 124 "run_until had passed")
	else
		printf '%s\n' "$1" >"$CF_RUN/cmd/$cf_id.json"
		cf_s=$(cf_body accepted null "")
		(sh "$CF_LIB/commands.sh" "$cf_id" >/dev/null 2>&1 &)
	fi
	printf '%s\n' "$cf_s" >"$CF_RUN/cmd/$cf_id.status"
	cf_spool "command/$cf_id/status" "$cf_s"
	# Keep the last 256 commands' statuses.
	# shellcheck disable=SC2012 # the names are command ids: letters, digits, _ and -
	ls -t "$CF_RUN/cmd/"*.status | tail -n +257 | while read -r cf_old; do
		rm -f "${cf_old%.status}".*
	done
}

# What a command left for after its final status was acknowledged (6.1, step 4): only once nothing
# waits in the spool or the outbox, since commands.sh may have spooled that status after this loop's
# last flush (a reboot then lost it with /tmp, and the console sent the command again a minute later).
cf_after() {
	[ -z "$(find "$CF_SPOOL" "$CF_OUTBOX" -name '*.msg' -o -name '*.json')" ] || return 0
	for cf_file in "$CF_RUN"/after/*; do
		[ -e "$cf_file" ] || break
		case "$cf_file" in *.tmp) continue ;; esac # its command has not spooled its final status yet
		cf_what=$(cat "$cf_file")
		rm -f "$cf_file"
		cf_sub_stop
		case "$cf_what" in
		reboot)
			echo command >"$CF_STATE/boot-reason"
			reboot
			;;
		factory_reset)
			firstboot -y
			reboot
			;;
		sysupgrade\ *)
			echo fw_update >"$CF_STATE/boot-reason"
			# shellcheck disable=SC2086 # options and the image path, split on purpose
			sysupgrade ${cf_what#sysupgrade }
			;;
		esac
		exit 0
	done
}

# Refused or unreachable: the next try in 2 s, doubling to 2 min (docs/device-protocol.md 10, step 9).
cf_back_off() {
	CF_BACKOFF=$((CF_BACKOFF < 2 ? 2 : CF_BACKOFF * 2))
	[ "$CF_BACKOFF" -le 120 ] || CF_BACKOFF=120
	cf_retry=$(($(date +%s) + CF_BACKOFF))
	cf_log warning "$1 ($(tail -n 1 "$CF_RUN/mqtt.err" 2>/dev/null)); retrying in $CF_BACKOFF s"
}

# `tunnel_open` (4.7): a session not yet dialled and whose password has not expired is handed to
# tunnel.sh; the console says it again until the router dials, so a session is dialled once.
cf_tunnel() {
	cf_head=$(printf '%s\n' "$1" | jq -r 'select(.type == "tunnel_open" and (.expires | type) == "number")
		| [(.session // "" | tostring), .expires] | @tsv' 2>/dev/null)
	cf_session=$(printf '%s' "$cf_head" | cut -f1)
	printf '%s' "$cf_session" | grep -qE '^[A-Za-z0-9_-]{8,64}$' || return 0
	[ -e "$CF_RUN/tunnel/$cf_session.dialled" ] && return 0
	[ "$(printf '%s' "$cf_head" | cut -f2)" -gt "$(cf_now_ms)" ] 2>/dev/null || return 0
	mkdir -p "$CF_RUN/tunnel"
	chmod 700 "$CF_RUN/tunnel"
	: >"$CF_RUN/tunnel/$cf_session.dialled"
	(umask 077 && printf '%s\n' "$1" >"$CF_RUN/tunnel/$cf_session.json")
	(sh "$CF_LIB/tunnel.sh" "$cf_session" >/dev/null 2>&1 &)
}

# One line of the listener (`TOPIC PAYLOAD`: a command or tunnel_open) or a wake-up (C: collect now).
cf_line() {
	case "$1" in
	"cellfleet/v1/$CF_IDENT/command {"*) cf_command "${1#* }" ;;
	"cellfleet/v1/$CF_IDENT/tunnel {"*) cf_tunnel "${1#* }" ;;
	C) cf_next=0 ;;
	esac
}

cf_main() {
	cf_setup
	cf_credentials
	trap 'cf_sub_stop; exit 0' INT TERM
	trap 'cf_log info "configuration changed: restarting"; cf_sub_stop; exit 0' HUP
	cf_next=0
	cf_retry=0
	while :; do
		cf_now=$(date +%s)
		if [ "$cf_now" -ge "$cf_next" ]; then
			cf_collect
			cf_next=$((cf_now + CF_INTERVAL))
		fi
		cf_number
		if [ -n "${CF_SUB:-}" ] && ! kill -0 "$CF_SUB" 2>/dev/null; then
			wait "$CF_SUB" 2>/dev/null
			CF_SUB=
			cf_back_off "broker unreachable or refused"
		fi
		if [ "$cf_now" -ge "$cf_retry" ]; then
			if [ -z "${CF_SUB:-}" ]; then
				cf_sub_start || cf_back_off "broker unreachable or refused"
			fi
			if [ -n "${CF_SUB:-}" ] && { [ -z "${CF_ONLINE:-}" ] || [ -n "$(ls "$CF_OUTBOX")" ]; }; then
				if cf_flush; then
					CF_BACKOFF=0
					cf_after
				else
					cf_back_off "could not publish as $CF_IDENT-p"
				fi
			fi
		fi
		jobs >/dev/null
		cf_now=$(date +%s)
		cf_until=$cf_next
		[ "$cf_retry" -le "$cf_now" ] || [ "$cf_retry" -ge "$cf_until" ] || cf_until=$cf_retry
		cf_wait=$((cf_until - cf_now))
		[ "$cf_wait" -gt 0 ] || cf_wait=1
		if read -r -t "$cf_wait" cf_line <&3; then
			cf_line "$cf_line"
		fi
	done
}

cf_main
