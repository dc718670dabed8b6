#!/bin/sh
# Collectors: each prints one collect body (docs/device-protocol.md, 4.2) built from what the router
# itself says — ubus, ip -j, /sys/class/net, /proc, wg, OpenVPN status files, mmcli or uqmi.
# Sourced by agent.sh after lib.sh.

# shellcheck disable=SC2016 # jq programs are single-quoted on purpose

cf_read() { # cf_read FILE DEFAULT: the first line of a file, or DEFAULT
	cf_line=
	{ read -r cf_line <"$1"; } 2>/dev/null || cf_line=
	printf '%s' "${cf_line:-$2}"
}

# The firmware version as /etc/openwrt_release names it (sysupgrade replaces the file).
cf_firmware() {
	cf_fw=$(sed -n "s/^DISTRIB_RELEASE=['\"]\{0,1\}\([^'\"]*\).*/\1/p" "$CF_RELEASE_FILE" 2>/dev/null)
	printf '%s' "${cf_fw:-unknown}"
}

# The router's serial: configured, the device tree's, or its first Ethernet address.
cf_serial() {
	cf_sn=$(cf_cfg serial)
	[ -n "$cf_sn" ] || cf_sn=$(tr -d '\000' 2>/dev/null </proc/device-tree/serial-number)
	if [ -z "$cf_sn" ]; then
		for cf_dev in /sys/class/net/*; do
			[ -e "$cf_dev/device" ] || continue
			cf_sn=$(cf_read "$cf_dev/address" "" | tr -d ':' | tr 'a-f' 'A-F')
			break
		done
	fi
	printf '%s' "${cf_sn:-unknown}"
}

# The model: configured (the name a zero-touch configuration matches), else the board's own.
cf_board_model() {
	cf_model=$(cf_cfg model)
	[ -n "$cf_model" ] || cf_model=$(ubus call system board 2>/dev/null | jq -r '.model // "OpenWrt"' 2>/dev/null)
	printf '%s' "${cf_model:-OpenWrt}"
}

collect_board() {
	cf_board=$(ubus call system board 2>/dev/null) || cf_board='{}'
	cf_temp=null
	for cf_zone in /sys/class/thermal/thermal_zone*/temp; do
		cf_t=$(cf_read "$cf_zone" "")
		[ -n "$cf_t" ] && cf_temp=$cf_t && break
	done
	jq -cn --argjson board "$cf_board" --arg model "$(cf_cfg model)" --arg firmware "$(cf_firmware)" --arg serial "$(cf_serial)" \
		--arg hostname "$(cf_read /proc/sys/kernel/hostname OpenWrt)" --arg uptime "$(cf_read /proc/uptime 0)" \
		--arg load "$(cf_read /proc/loadavg 0)" --arg cpus "$(grep -c '^processor' /proc/cpuinfo)" \
		--arg meminfo "$(grep -E '^(MemTotal|MemAvailable|MemFree):' /proc/meminfo)" --argjson temp "$cf_temp" '
		def kib($name): ($meminfo | capture($name + ":\\s+(?<v>[0-9]+)").v // "0" | tonumber * 1024);
		(if $model == "" then $board.model // "OpenWrt" else $model end) as $model
		| {vendor: ($model | split(" ")[0]), model: $model[0:128], firmware: $firmware[0:128],
			serial: $serial[0:128], hostname: $hostname[0:253],
			uptime: ($uptime | split(" ")[0] | tonumber | floor),
			cpu_load: ([(($load | split(" ")[0] | tonumber) / ([($cpus | tonumber), 1] | max) * 100), 100] | min
				| . * 10 | round / 10),
			memory_total: kib("MemTotal"),
			memory_free: (if ($meminfo | test("MemAvailable")) then kib("MemAvailable") else kib("MemFree") end),
			temperature: (if $temp == null then null else ([[$temp / 1000, -60] | max, 150] | min) end)}'
}

# Lines "name rx tx" of every network device's counters.
cf_counters() {
	for cf_dev in /sys/class/net/*; do
		printf '%s %s %s\n' "${cf_dev##*/}" "$(cf_read "$cf_dev/statistics/rx_bytes" 0)" \
			"$(cf_read "$cf_dev/statistics/tx_bytes" 0)"
	done
}

collect_interfaces() {
	cf_dump=$(ubus call network.interface dump 2>/dev/null) || cf_dump='{}'
	jq -cn --argjson addr "$(ip -j addr show 2>/dev/null || echo '[]')" \
		--argjson routes "$(ip -j -4 route show table main 2>/dev/null || echo '[]')" \
		--argjson dump "$cf_dump" --arg counters "$(cf_counters)" '
		($counters | split("\n") | map(select(. != "") | split(" ") | {key: .[0], value: .})
			| from_entries) as $count
		| ([$routes[] | select(.dst == "default") | .dev] | unique) as $wan_devs
		| ([$dump.interface[]? | {key: (.l3_device // .device // ""), value: .interface}]
			| from_entries) as $logical
		| {interfaces: [$addr[] | select(.ifname != "lo" and (.link_type // "") != "loopback")
			| . as $i | ($logical[$i.ifname] // "") as $name
			| {name: .ifname[0:64],
				kind: (if ($wan_devs | index($i.ifname)) != null or ($name | test("^(wan|wwan|mob)"))
					then "wan" elif ($name | test("^lan")) or ($i.ifname | test("^br-lan"))
					then "lan" else "other" end),
				state: (if .operstate == "UP" or .operstate == "UNKNOWN" and ((.flags // []) | index("UP")) != null
					then "up" else "down" end),
				ipv4: ([.addr_info[]? | select(.family == "inet") | "\(.local)/\(.prefixlen)"] | first // null),
				mac: (if ((.address // "") | test("^([0-9a-f]{2}:){5}[0-9a-f]{2}$")) and .address != "00:00:00:00:00:00"
					then .address | ascii_upcase else null end),
				rx: ($count[$i.ifname][1] // "0" | tonumber),
				tx: ($count[$i.ifname][2] // "0" | tonumber)}][0:128]}'
}

collect_routing() {
	jq -cn --argjson routes "$(ip -j -4 route show table main 2>/dev/null || echo '[]')" '
		([$routes[] | select(.dst == "default") | .metric // 0] | min) as $best
		| {routes: ([$routes[] | select(.dev != null)] | to_entries | map(.value as $r
			| {destination: (if $r.dst == "default" then "0.0.0.0/0" else $r.dst end),
				gateway: ($r.gateway // null), interface: $r.dev[0:64], metric: ($r.metric // 0),
				is_default: ($r.dst == "default" and ($r.metric // 0) == $best)})
			| reduce .[] as $r ([]; . + [if $r.is_default and any(.[]; .is_default)
				then $r + {is_default: false} else $r end]))[0:1024]}'
}

collect_ethernets() {
	{
		if command -v swconfig >/dev/null 2>&1; then
			swconfig dev switch0 show 2>/dev/null | sed -n 's/.*link: port:\([0-9]*\) link:\([a-z]*\)\( speed:\([0-9]*\)[^ ]*\)\{0,1\}\( \([a-z]*\)-duplex\)\{0,1\}.*/port\1 \2 \4 \6/p'
		fi
		for cf_dev in /sys/class/net/*; do
			[ -e "$cf_dev/device" ] && [ "$(cf_read "$cf_dev/type" 0)" = 1 ] || continue
			[ -e "$cf_dev/wireless" ] || [ -e "$cf_dev/phy80211" ] || [ -e "$cf_dev/dsa" ] && continue
			cf_link=down
			[ "$(cf_read "$cf_dev/carrier" 0)" = 1 ] && cf_link=up
			printf '%s %s %s %s\n' "${cf_dev##*/}" "$cf_link" "$(cf_read "$cf_dev/speed" "")" \
				"$(cf_read "$cf_dev/duplex" "")"
		done
	} | jq -cR '[inputs, . | split(" ")] | map({name: .[0][0:64], link: .[1],
			speed: (if .[1] == "up" and ((.[2] // "") | test("^[0-9]+$")) then .[2] | tonumber else null end),
			duplex: (if .[1] == "up" and (.[3] == "full" or .[3] == "half") then .[3] else null end)})
		| unique_by(.name) | {ports: .[0:64]}' 2>/dev/null || printf '{"ports":[]}'
}

# WireGuard from `wg show all dump`, OpenVPN from its uci instances and status files.
collect_tunnels() {
	cf_wg=
	command -v wg >/dev/null 2>&1 && cf_wg=$(wg show all dump 2>/dev/null)
	cf_ovpn=$(uci -q show openvpn 2>/dev/null)
	cf_status=
	for cf_name in $(printf '%s\n' "$cf_ovpn" | sed -n "s/^openvpn\.\([A-Za-z0-9_]*\)=openvpn$/\1/p"); do
		cf_file=$(printf '%s\n' "$cf_ovpn" | sed -n "s/^openvpn\.$cf_name\.status='\([^' ]*\).*/\1/p")
		[ -n "$cf_file" ] || cf_file=/var/run/openvpn.$cf_name.status
		cf_status="$cf_status$cf_name $(sed -n 's/^TCP\/UDP read bytes,//p' "$cf_file" 2>/dev/null || echo 0) $(sed -n 's/^TCP\/UDP write bytes,//p' "$cf_file" 2>/dev/null || echo 0) $([ -s "$cf_file" ] && echo 1 || echo 0)
"
	done
	cf_services=$(ubus call service list '{"name":"openvpn"}' 2>/dev/null) || cf_services='{}'
	jq -cn --arg wg "$cf_wg" --arg ovpn "$cf_ovpn" --arg status "$cf_status" --argjson services "$cf_services" \
		--argjson addr "$(ip -j addr show 2>/dev/null || echo '[]')" --arg now "$(date +%s)" '
		def num: if . == null or . == "" then 0 else (tonumber? // 0) end;
		def host: if . == null or . == "(none)" then null else sub(":[0-9]+$"; "") | ltrimstr("[") | rtrimstr("]") end;
		($wg | split("\n") | map(select(. != "") | split("\t"))) as $rows
		| [$rows[] | select(length == 5) | .[0]] as $wgifs
		| ($status | split("\n") | map(select(. != "") | split(" ") | {key: .[0], value: .}) | from_entries) as $st
		| ($ovpn | split("\n")) as $lines
		| def opt($n; $o): ($lines | map(select(startswith("openvpn.\($n).\($o)="))) | first // null
			| if . == null then null else sub("^[^=]*='"'"'"; "") | rtrimstr("'"'"'") end);
		{tunnels: ([$wgifs[] as $iface | [$rows[] | select(length == 9 and .[0] == $iface)] as $peers
			| {name: $iface[0:64], kind: "wireguard",
				state: (if any($peers[]; ($now | tonumber) - (.[5] | num) < 180) then "up" else "down" end),
				local: ([$addr[] | select(.ifname == $iface) | .addr_info[]? | select(.family == "inet") | .local] | first // null),
				remote: ($peers[0][3] // null | host),
				rx: ([$peers[][6] | num] | add // 0), tx: ([$peers[][7] | num] | add // 0), service: "running"}]
		+ [$st | keys[] as $n | $st[$n] as $s
			| (($services.openvpn.instances // {})[$n].running // false) as $running
			| select((opt($n; "enabled") // "0") == "1" or $running)
			| {name: $n[0:64], kind: "openvpn",
				state: (if $running and $s[3] == "1" then "up" else "down" end),
				local: null, remote: (opt($n; "remote") // null | if . == null then null else split(" ")[0] end),
				rx: ($s[1] | num), tx: ($s[2] | num), service: (if $running then "running" else "stop" end)}])[0:64]}'
}
