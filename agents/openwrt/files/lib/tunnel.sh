#!/bin/sh
# Carries one remote-access session (docs/device-protocol.md 4.7, ADR 038): `sh tunnel.sh SESSION`
# reads $CF_RUN/tunnel/SESSION.json (the `tunnel_open` agent.sh kept), authorises the session's key
# on the router's sshd (a `terminal`; a `web` session reaches the router's web server and needs no
# key), dials the console's SSH endpoint with the single-use password, pinning its host key, and
# forwards one port back to 127.0.0.1:target_port. It returns when the console closes the
# connection (or the dial fails), and the key is removed again.

# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2016 # jq programs are single-quoted on purpose

# shellcheck source=lib.sh
. "${CELLFLEET_LIB:-/usr/lib/cellfleet}/lib.sh"

CF_SESSION=$1
CF_DIR="$CF_RUN/tunnel/$CF_SESSION"
CF_MSG="$CF_RUN/tunnel/$CF_SESSION.json"
# The sshd's keys for root: dropbear's on OpenWrt; /root/.ssh/authorized_keys for OpenSSH's sshd.
CF_KEYS=$(cf_cfg authorized_keys /etc/dropbear/authorized_keys)
CF_MARK="cellfleet-session-$CF_SESSION"

field() { jq -r --arg k "$1" '.[$k] // empty | tostring' "$CF_MSG"; }

umask 077
mkdir -p "$CF_DIR/.ssh"
cf_host=$(field host)
cf_port=$(field port)
cf_user=$(field user)
cf_target=$(field target_port)
cf_kind=$(field kind)
field password >"$CF_DIR/password"
# Pinned: the endpoint's key under both spellings a client looks it up by (dbclient: the host as
# typed; OpenSSH: `[host]:port` for a port other than 22). No other key is accepted.
cf_host_key=$(field host_key)
printf '%s %s\n[%s]:%s %s\n' "$cf_host" "$cf_host_key" "$cf_host" "$cf_port" "$cf_host_key" >"$CF_DIR/.ssh/known_hosts"
cf_public_key=$(field public_key)
rm -f "$CF_MSG"

# Takes and gives back a lock around edits of the authorized keys (two sessions may end at once).
keys_lock() {
	cf_tries=0
	until mkdir "$CF_RUN/tunnel/.keys.lock" 2>/dev/null; do
		cf_tries=$((cf_tries + 1))
		[ "$cf_tries" -lt 10 ] || break
		sleep 1
	done
}
keys_unlock() { rmdir "$CF_RUN/tunnel/.keys.lock" 2>/dev/null; }

# The session's key, for root, while the tunnel stands; no forwarding of its own from the router.
add_key() {
	keys_lock
	mkdir -p "$(dirname "$CF_KEYS")"
	printf 'no-port-forwarding,no-agent-forwarding,no-X11-forwarding %s %s\n' "$cf_public_key" "$CF_MARK" >>"$CF_KEYS"
	keys_unlock
}

remove_key() {
	keys_lock
	if [ -e "$CF_KEYS" ]; then
		grep -v " $CF_MARK\$" "$CF_KEYS" >"$CF_KEYS.cellfleet"
		cat "$CF_KEYS.cellfleet" >"$CF_KEYS"
		rm -f "$CF_KEYS.cellfleet"
	fi
	keys_unlock
}

finish() {
	[ "$cf_kind" = terminal ] && remove_key
	rm -rf "$CF_DIR"
}
trap 'finish; exit 0' INT TERM

case "$cf_port$cf_target" in *[!0-9]*) cf_log err "tunnel $CF_SESSION: unreadable ports" && finish && exit 1 ;; esac
case "$cf_kind" in terminal | web) ;; *) cf_log err "tunnel $CF_SESSION: unknown kind $cf_kind" && finish && exit 1 ;; esac
[ "$cf_kind" = terminal ] && add_key

cf_forward="$cf_target:127.0.0.1:$cf_target"
cf_client=$(cf_cfg tunnel_client auto)
if [ "$cf_client" = dbclient ] || { [ "$cf_client" = auto ] && command -v dbclient >/dev/null; }; then
	# dropbear's client: the password from DROPBEAR_PASSWORD, known_hosts from $HOME/.ssh.
	DROPBEAR_PASSWORD=$(cat "$CF_DIR/password") HOME="$CF_DIR" \
		dbclient -N -K 30 -R "$cf_forward" -p "$cf_port" "$cf_user@$cf_host" </dev/null >"$CF_DIR/client.log" 2>&1
else
	# OpenSSH's client: the password through an askpass program that prints it.
	printf '#!/bin/sh\ncat "%s"\n' "$CF_DIR/password" >"$CF_DIR/askpass"
	chmod 700 "$CF_DIR/askpass"
	SSH_ASKPASS="$CF_DIR/askpass" SSH_ASKPASS_REQUIRE=force DISPLAY=cellfleet HOME="$CF_DIR" \
		ssh -N -R "$cf_forward" -p "$cf_port" -F none -o UserKnownHostsFile="$CF_DIR/.ssh/known_hosts" \
		-o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes -o PreferredAuthentications=password \
		-o PubkeyAuthentication=no -o NumberOfPasswordPrompts=1 -o ExitOnForwardFailure=yes \
		-o ServerAliveInterval=30 "$cf_user@$cf_host" </dev/null >"$CF_DIR/client.log" 2>&1
fi
cf_rc=$?
[ "$cf_rc" = 0 ] || cf_log warning "tunnel $CF_SESSION: the client ended with $cf_rc: $(tail -n 1 "$CF_DIR/client.log")"
finish
