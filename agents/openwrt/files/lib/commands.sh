#!/bin/sh
# Runs one accepted command (docs/device-protocol.md, 4.4 and 6): `sh commands.sh ID` reads
# $CF_RUN/cmd/ID.json, reports statuses through the spool and leaves what must happen only after the
# final status is acknowledged (reboot, flashing, factory reset) in $CF_RUN/after/ID for agent.sh.

# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2016 # jq programs are single-quoted on purpose

# shellcheck source=lib.sh
. "${CELLFLEET_LIB:-/usr/lib/cellfleet}/lib.sh"
# shellcheck source=transfer.sh
. "$CF_LIB/transfer.sh"

CF_ID=$1
CF_CMD="$CF_RUN/cmd/$CF_ID.json"
CF_OUT="$CF_RUN/cmd/$CF_ID.out"
CF_WORK="$CF_RUN/work"
mkdir -p "$CF_WORK" "$CF_RUN/after"

arg() { jq -r --arg k "$1" '.args[$k] // empty | tostring' "$CF_CMD"; }
file_field() { jq -r --arg k "$1" '.file[$k] // empty | tostring' "$CF_CMD"; }

# status STATE CODE [PROGRESS]: the command's status with the tail of $CF_OUT as its output.
status() {
	[ -e "$CF_OUT" ] || : >"$CF_OUT"
	cf_body=$(tail -c 60000 "$CF_OUT" | jq -cRs --arg id "$CF_ID" --arg state "$1" --argjson code "$2" \
		--argjson ts "$(cf_now_ms)" --arg progress "${3:-}" '{ts: $ts, id: $id, state: $state, code: $code,
		output: .} + (if $progress == "" then {} else {progress: ($progress | tonumber)} end)')
	printf '%s\n' "$cf_body" >"$CF_RUN/cmd/$CF_ID.status"
	cf_spool "command/$CF_ID/status" "$cf_body"
}

finish() { # finish CODE [AFTER]: the final status; AFTER is what agent.sh does once it is acknowledged
	[ -n "${2:-}" ] && printf '%s\n' "$2" >"$CF_RUN/after/$CF_ID.tmp"
	if [ "$1" = 0 ]; then status completed 0; else status failed "$1"; fi
	[ -n "${2:-}" ] && mv "$CF_RUN/after/$CF_ID.tmp" "$CF_RUN/after/$CF_ID"
	exit 0
}

say() { printf '%s\n' "$*" >>"$CF_OUT"; }

# The file a GET command carries, downloaded into $CF_WORK; returns like cf_get.
fetch_file() {
	cf_name=$(file_field filename | tr -cd 'A-Za-z0-9._-')
	CF_FILE="$CF_WORK/${cf_name:-$CF_ID.bin}"
	status running null 0
	cf_get "$(file_field url)" "$CF_FILE" "$(file_field size)" "$(file_field sha256)" "$(file_field expires_at)"
	cf_rc=$?
	say "$CF_XFER_OUT"
	return $cf_rc
}

# Uploads a file the router made to the command's PUT URL, then finishes.
upload_and_finish() {
	cf_put "$1" "$(file_field url)" "$(file_field expires_at)"
	cf_rc=$?
	say "$CF_XFER_OUT"
	rm -f "$1"
	finish $cf_rc
}

# kill_tree PID: the process and every descendant (found through /proc), children first.
kill_tree() {
	for cf_stat in /proc/[0-9]*/stat; do
		read -r cf_child _ _ cf_parent _ <"$cf_stat" 2>/dev/null || continue
		[ "$cf_parent" = "$1" ] && kill_tree "$cf_child"
	done
	kill -KILL "$1" 2>/dev/null
}

# A shell script with a time limit: args.timeout seconds, else shell_timeout (default 25 minutes, so
# its failed 124 comes before the console's 30-minute timeout, docs/device-protocol.md 4.4).
run_shell() {
	cf_limit=$(arg timeout)
	case "$cf_limit" in '' | *[!0-9]*) cf_limit=$(cf_cfg shell_timeout 1500) ;; esac
	jq -r '.args.script // ""' "$CF_CMD" >"$CF_WORK/$CF_ID.sh"
	sh "$CF_WORK/$CF_ID.sh" >"$CF_OUT" 2>&1 </dev/null &
	cf_pid=$!
	cf_waited=0
	while kill -0 "$cf_pid" 2>/dev/null && [ "$(cf_state "$cf_pid")" != Z ]; do
		if [ "$cf_waited" -ge "$cf_limit" ]; then
			kill_tree "$cf_pid"
			wait "$cf_pid" 2>/dev/null
			rm -f "$CF_WORK/$CF_ID.sh"
			say "killed after ${cf_limit} s"
			finish 124
		fi
		sleep 1
		cf_waited=$((cf_waited + 1))
	done
	wait "$cf_pid"
	cf_code=$?
	rm -f "$CF_WORK/$CF_ID.sh"
	finish "$cf_code"
}

cf_state() { # the process state letter (Z for a child that ended and waits to be reaped)
	read -r _ _ cf_st _ <"/proc/$1/stat" 2>/dev/null
	printf '%s' "$cf_st"
}

cf_type=$(jq -r '.type' "$CF_CMD")
case "$cf_type" in
shell) run_shell ;;
reboot)
	say "rebooting"
	finish 0 reboot
	;;
factory_reset)
	say "resetting to factory defaults (firstboot -y), then rebooting"
	finish 0 factory_reset
	;;
download)
	fetch_file || finish 75
	cf_dir=$(arg path)
	if [ -n "$cf_dir" ]; then mkdir -p "$cf_dir" && mv "$CF_FILE" "$cf_dir/" && CF_FILE="$cf_dir/${CF_FILE##*/}"; fi
	say "saved as $CF_FILE"
	finish 0
	;;
pkg_install)
	fetch_file || finish 75
	opkg install "$CF_FILE" >>"$CF_OUT" 2>&1
	cf_code=$?
	rm -f "$CF_FILE"
	finish "$cf_code"
	;;
fw_update)
	fetch_file || finish 75
	if ! sysupgrade -T "$CF_FILE" >>"$CF_OUT" 2>&1; then
		say "sysupgrade -T refused the image: not flashed"
		rm -f "$CF_FILE"
		finish 1
	fi
	cf_keep=
	[ "$(arg keep_settings)" = false ] && cf_keep="-n "
	say "image checked by sysupgrade -T; flashing and rebooting"
	finish 0 "sysupgrade $cf_keep$CF_FILE"
	;;
backup)
	cf_file="$CF_WORK/backup-$(cat /proc/sys/kernel/hostname)-$(date +%Y%m%d%H%M%S).tar.gz"
	sysupgrade -b "$cf_file" >>"$CF_OUT" 2>&1 || finish 1
	upload_and_finish "$cf_file"
	;;
restore)
	fetch_file || finish 75
	sysupgrade -r "$CF_FILE" >>"$CF_OUT" 2>&1 || finish 1
	rm -f "$CF_FILE"
	# No reboot (docs/device-protocol.md 4.4): the services take the restored configuration.
	reload_config >>"$CF_OUT" 2>&1
	say "configuration restored and reloaded"
	finish 0
	;;
journal)
	cf_file="$CF_WORK/journal-$CF_ID.log"
	logread >"$cf_file" 2>>"$CF_OUT" || finish 1
	upload_and_finish "$cf_file"
	;;
*)
	say "unsupported command type: $cf_type"
	finish 127
	;;
esac
