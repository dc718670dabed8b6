#!/bin/sh
# The Cellfleet agent's one-line install, for a router without the package (README.md, "Install
# with one line"). The console serves this file at /api/agent/install.sh with the lines below
# filled in: its own address and the broker's, and, from a router's page (a link that serves once
# and expires), that router's ident and key:
#   wget -qO- 'https://console.example.com/api/agent/install.sh?token=…' | sh
# Without a link the ident and key are its arguments:
#   wget -qO- https://console.example.com/api/agent/install.sh | sh -s -- IDENT KEY
# It installs the package the console serves (opkg takes its dependencies from the router's own
# feeds when they are missing), writes /etc/config/cellfleet with uci and starts the service.
# BusyBox ash and wget (uclient-fetch) are enough.
set -eu

CONSOLE_URL=''
BROKER=''
IDENT=''
KEY=''

if [ $# -ge 2 ]; then
	IDENT=$1
	KEY=$2
fi
# Where the files are: / on a router; a temporary root in the console's tests.
ROOT=${CELLFLEET_ROOT:-}

say() {
	printf 'cellfleet: %s\n' "$1" >&2
}

fail() {
	say "$1"
	exit 1
}

if [ -z "$CONSOLE_URL" ] || [ -z "$BROKER" ]; then
	fail "fetch this script from the console: it fills in its addresses"
fi
if [ -z "$IDENT" ] || [ -z "$KEY" ]; then
	fail "no ident and key: copy the line from the router's page, or run: … | sh -s -- IDENT KEY"
fi
case $KEY in
*[!0-9A-Fa-f]*) fail "the key is 64 hexadecimal characters" ;;
*) [ ${#KEY} -eq 64 ] || fail "the key is 64 hexadecimal characters" ;;
esac

# fetch URL FILE: the stock wget (uclient-fetch on OpenWrt), or curl.
fetch() {
	if command -v wget >/dev/null 2>&1; then
		wget -q -O "$2" "$1"
	else
		curl -fsS -o "$2" "$1"
	fi
}

missing=
command -v mosquitto_sub >/dev/null 2>&1 || missing="$missing mosquitto-client-ssl"
command -v jq >/dev/null 2>&1 || missing="$missing jq"
command -v openssl >/dev/null 2>&1 || missing="$missing openssl-util"
if [ -n "$missing" ]; then
	say "installing from the router's package feeds:$missing"
	opkg update >/dev/null
	# shellcheck disable=SC2086 # one package a word
	opkg install $missing
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say "downloading the agent from $CONSOLE_URL"
fetch "$CONSOLE_URL/api/agent/cellfleet-agent.ipk" "$work/cellfleet-agent.ipk"
opkg install "$work/cellfleet-agent.ipk"

uci set cellfleet.main=agent
uci set "cellfleet.main.broker=$BROKER"
uci set "cellfleet.main.ident=$IDENT"
uci set "cellfleet.main.key=$KEY"
uci commit cellfleet

# What the init script's `#!/bin/sh /etc/rc.common` line runs.
sh "$ROOT/etc/rc.common" "$ROOT/etc/init.d/cellfleet" enable
sh "$ROOT/etc/rc.common" "$ROOT/etc/init.d/cellfleet" restart
say "installed and started: $IDENT connects to $BROKER; its page shows it online within a minute"
