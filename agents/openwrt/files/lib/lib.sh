#!/bin/sh
# Shared by every part of the Cellfleet agent: where things live, configuration, the spool of
# messages, logging. Sourced, never run.
# shellcheck disable=SC2034 # the variables are for the scripts that source this file

CF_STATE=${CELLFLEET_STATE:-/etc/cellfleet}
CF_RUN=${CELLFLEET_RUN:-/tmp/cellfleet}
CF_LIB=${CELLFLEET_LIB:-/usr/lib/cellfleet}
CF_RELEASE_FILE=${CELLFLEET_RELEASE_FILE:-/etc/openwrt_release}
CF_VERSION=1.0.0
CF_SPOOL=$CF_RUN/spool
CF_FIFO=$CF_RUN/wake

# cf_cfg OPTION [DEFAULT]: an option of the `main` section of /etc/config/cellfleet.
cf_cfg() {
	cf_value=$(uci -q get "cellfleet.main.$1" 2>/dev/null) || cf_value=
	[ -n "$cf_value" ] || cf_value=${2:-}
	printf '%s' "$cf_value"
}

cf_log() {
	logger -t cellfleet -p "daemon.$1" -- "$2" 2>/dev/null || printf 'cellfleet %s: %s\n' "$1" "$2" >&2
}

cf_now_ms() {
	printf '%s000' "$(date +%s)"
}

# cf_spool TOPIC_SUFFIX JSON: leaves a message (without v/seq/epoch) for the main loop to number and
# send, then wakes it. Written aside and renamed, so the loop never reads half a message.
cf_spool() {
	cf_name="$CF_SPOOL/$(date +%s)-$$-${cf_spool_n:=0}"
	cf_spool_n=$((cf_spool_n + 1))
	printf '%s\n%s\n' "$1" "$2" >"$cf_name.tmp" && mv "$cf_name.tmp" "$cf_name.msg"
	cf_wake
}

# Wakes the main loop (it reads the FIFO); never blocks when the agent is not running.
cf_wake() {
	[ -p "$CF_FIFO" ] || return 0
	if [ -n "${CF_IS_MAIN:-}" ]; then return 0; fi
	# shellcheck disable=SC2016 # $1 is the inner shell's
	timeout 2 sh -c 'echo W >"$1"' sh "$CF_FIFO" 2>/dev/null &
}

# cf_event KIND LEVEL MESSAGE [DETAILS_JSON]
cf_event() {
	cf_spool event "$(jq -cn --arg kind "$1" --arg level "$2" --arg message "$3" \
		--argjson details "${4:-{\}}" --argjson ts "$(cf_now_ms)" \
		'{ts: $ts, kind: $kind, level: $level, message: $message, details: $details}')"
}

# cf_hmac HEXKEY TEXT: HMAC-SHA256 as 64 lowercase hex characters (docs/device-protocol.md, 2).
cf_hmac() {
	printf '%s' "$2" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$1" | awk '{print tolower($NF)}'
}
