#!/bin/sh
# The modems collect (docs/device-protocol.md, 4.2): ModemManager's `mmcli -J` where it runs, else
# uqmi on the first QMI control device. Sourced by agent.sh after lib.sh and collect.sh.

# shellcheck disable=SC2016 # jq programs are single-quoted on purpose

# Per modem, five JSON documents in a row: its index (a string), the modem, its signal, its SIM and
# its connected bearer (else the last one); cf_mmcli_to_report groups them (one jq run for all).
cf_mmcli_modems() {
	for cf_path in $(mmcli -L -J 2>/dev/null | jq -r '."modem-list"[]?'); do
		cf_idx=${cf_path##*/}
		cf_m=$(mmcli -J -m "$cf_idx" 2>/dev/null) || continue
		cf_s=$(mmcli -J -m "$cf_idx" --signal-get 2>/dev/null) || cf_s='{}'
		# One jq for both: the SIM's path on the first line, then the bearers' paths.
		cf_paths=$(printf '%s' "$cf_m" | jq -r '(.modem.generic.sim // "--"), (.modem.generic.bearers[]?)')
		cf_simpath=${cf_paths%%"
"*}
		cf_sim='{}'
		[ "$cf_simpath" != "--" ] && { cf_sim=$(mmcli -J -i "${cf_simpath##*/}" 2>/dev/null) || cf_sim='{}'; }
		cf_b='{}'
		for cf_bpath in $(printf '%s\n' "$cf_paths" | tail -n +2); do
			cf_one=$(mmcli -J -b "${cf_bpath##*/}" 2>/dev/null) || continue
			cf_b=$cf_one
			printf '%s' "$cf_one" | grep -q '"connected": *"yes"' && break
		done
		printf '"%s"\n%s\n%s\n%s\n%s\n' "$cf_idx" "$cf_m" "$cf_s" "$cf_sim" "$cf_b"
	done
}

cf_mmcli_to_report() {
	jq -cs --argjson routes "$(ip -j -4 route show table main 2>/dev/null || echo '[]')" '
		def val: if . == null or . == "--" or . == "" then null else . end;
		def num: val | if . == null then null else (tonumber? // null) end;
		def bound($lo; $hi): if . == null or . < $lo or . > $hi then null else . end;
		def mode: (. // []) as $t | if any($t[]; test("5gnr")) then "5G" elif any($t[]; test("lte")) then "LTE"
			elif any($t[]; test("umts|hspa|hsdpa|hsupa|evdo")) then "3G" elif any($t[]; test("gsm|gprs|edge|1xrtt")) then "2G"
			else "unknown" end;
		([$routes[] | select(.dst == "default")] | sort_by(.metric // 0) | first | .dev // null) as $wan
		| [range(0; length; 5) as $i | .[$i:$i + 5]
			| {id: .[0], m: .[1].modem, s: (.[2].modem.signal // {}), sim: (.[3].sim.properties // {}), b: (.[4].bearer // {})}]
		| map(. as $x | ($x.m.generic["access-technologies"] | mode) as $mode
			| (if $mode == "5G" then $x.s["5g"] elif $mode == "LTE" then $x.s.lte
				elif $mode == "3G" then $x.s.umts else $x.s.gsm end // {}) as $sig
			| ($sig.rssi | num) as $rssi
			| {id: $x.id, state: (if $x.b.status.connected == "yes" then 1 else 0 end),
				wan: (($x.b.status.interface | val) == $wan and $wan != null),
				mode: $mode, sim: ($x.m.generic["primary-sim-slot"] | num // 1 | if . < 1 or . > 8 then 1 else . end),
				operator: (($x.m["3gpp"]["operator-name"] // $x.sim["operator-name"]) | val | if . == null then null else .[0:128] end),
				ip: ($x.b["ipv4-config"].address | val),
				module: ([$x.m.generic.manufacturer, $x.m.generic.model] | map(val) | map(select(. != null))
					| join(" ") | if . == "" then "unknown" else .[0:128] end),
				band: null,
				signal: ($x.m.generic["signal-quality"].value | num | bound(0; 100)),
				imei: (($x.m["3gpp"].imei // $x.m.generic["equipment-identifier"]) | val
					| if . != null and test("^[0-9]{14,16}$") then . else null end),
				iccid: ($x.sim.iccid | val | if . != null and test("^[0-9]{18,22}F?$") then . else null end),
				imsi: ($x.sim.imsi | val | if . != null and test("^[0-9]{6,15}$") then . else null end),
				rx: ($x.b.stats["bytes-rx"] | num // 0), tx: ($x.b.stats["bytes-tx"] | num // 0),
				uptime: (if $x.b.status.connected == "yes" then ($x.b.stats.duration | num // 0) else 0 end),
				rsrq: (if $mode == "LTE" or $mode == "5G" then $sig.rsrq | num | bound(-40; 20) else null end),
				rssi: ($rssi | bound(-130; 0)),
				rsrp: (if $mode == "LTE" or $mode == "5G" then $sig.rsrp | num | bound(-160; -30) else null end),
				sinr: (if $mode == "LTE" or $mode == "5G" then $sig.snr // $sig.sinr | num | bound(-30; 50) else null end),
				csq: (if $rssi == null then 99 else [[(($rssi + 113) / 2 | floor), 0] | max, 31] | min end),
				roaming: ($x.m["3gpp"]["registration-state"] == "roaming")}) | .[0:8]
		| (map(.wan) | index(true) // 0) as $main
		| {modems: (to_entries | map(.value + {primary: (.key == $main)} | del(.wan)))}'
}

# uqmi where ModemManager is absent: one modem, from the first QMI control device.
cf_uqmi_report() {
	cf_qmi=$(cf_cfg qmi_device)
	for cf_dev in /dev/cdc-wdm*; do [ -z "$cf_qmi" ] && [ -e "$cf_dev" ] && cf_qmi=$cf_dev; done
	[ -n "$cf_qmi" ] || { printf '{"modems":[]}'; return; }
	q() { uqmi -s -d "$cf_qmi" "$@" 2>/dev/null || echo null; }
	jq -cn --argjson sig "$(q --get-signal-info)" --argjson sys "$(q --get-serving-system)" \
		--argjson imei "$(q --get-imei)" --argjson iccid "$(q --get-iccid)" --argjson imsi "$(q --get-imsi)" \
		--argjson data "$(q --get-data-status)" --arg model "$(q --get-capabilities | jq -r '.model? // empty' 2>/dev/null)" '
		def bound($lo; $hi): if . == null or . < $lo or . > $hi then null else . end;
		($sig.type // "") as $t
		| (if $t == "lte" then "LTE" elif $t == "5gnr" then "5G" elif $t == "wcdma" or $t == "umts" then "3G"
			elif $t == "gsm" then "2G" else "unknown" end) as $mode
		| {modems: [{id: "qmi0", state: (if $data == "connected" then 1 else 0 end), primary: true, mode: $mode,
			sim: 1, operator: ($sys.plmn_description // null), ip: null,
			module: (if $model == "" then "QMI modem" else $model end), band: null, signal: null,
			imei: (if ($imei | type) == "string" then $imei else null end),
			iccid: (if ($iccid | type) == "string" then $iccid else null end),
			imsi: (if ($imsi | type) == "string" then $imsi else null end),
			rx: 0, tx: 0, uptime: 0,
			rsrq: ($sig.rsrq // null | bound(-40; 20)), rssi: ($sig.rssi // null | bound(-130; 0)),
			rsrp: ($sig.rsrp // null | bound(-160; -30)), sinr: ($sig.snr // null | bound(-30; 50)),
			csq: (if $sig.rssi == null then 99 else [[(($sig.rssi + 113) / 2 | floor), 0] | max, 31] | min end),
			roaming: ($sys.roaming == true)}]}'
}

collect_modems() {
	if command -v mmcli >/dev/null 2>&1; then
		cf_mmcli_modems | cf_mmcli_to_report
	elif command -v uqmi >/dev/null 2>&1; then
		cf_uqmi_report
	else
		printf '{"modems":[]}'
	fi
}
