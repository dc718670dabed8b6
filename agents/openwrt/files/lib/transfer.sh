#!/bin/sh
# File transfers over HTTPS (docs/device-protocol.md, 7): downloads resumed with Range and checked
# against size and SHA-256, uploads as a raw PUT body. curl when installed, else uclient-fetch for
# downloads and openssl s_client (or nc for plain http://) for uploads. Sourced by commands.sh.
# shellcheck disable=SC2034 # CF_XFER_OUT is read by commands.sh
# Each function sets CF_XFER_OUT to a line for the command's output and returns 0 or 75.

cf_ca_args() {
	cf_ca=$(cf_cfg ca_file)
	[ -n "$cf_ca" ] && printf '%s %s' "$1" "$cf_ca"
}

# cf_get URL DEST SIZE SHA256 EXPIRES_AT_MS
cf_get() {
	CF_XFER_OUT=
	if [ "${5:-0}" -gt 0 ] && [ "$(cf_now_ms)" -gt "$5" ]; then
		CF_XFER_OUT="the download URL expired before the transfer started"
		return 75
	fi
	cf_part="$2.part"
	cf_try=0
	while [ "$cf_try" -lt 5 ]; do
		cf_try=$((cf_try + 1))
		cf_have=$(wc -c <"$cf_part" 2>/dev/null || echo 0)
		[ -n "$3" ] && [ "$cf_have" -ge "$3" ] && break
		if command -v curl >/dev/null 2>&1; then
			# shellcheck disable=SC2046 # the CA option is two words or none
			cf_code=$(curl -sS -L -C - -o "$cf_part" -w '%{http_code}' --connect-timeout 20 $(cf_ca_args --cacert) "$1" 2>"$cf_part.err")
			case "$cf_code" in
			2??) [ -z "$3" ] && break ;;
			416) break ;;
			000) ;;
			*)
				CF_XFER_OUT="download failed: HTTP $cf_code $(head -c 300 "$cf_part" 2>/dev/null)"
				rm -f "$cf_part" "$cf_part.err"
				return 75
				;;
			esac
		else
			# shellcheck disable=SC2046
			uclient-fetch -q -c -T 20 -O "$cf_part" $(cf_ca_args --ca-certificate) "$1" 2>"$cf_part.err" && [ -z "$3" ] && break
		fi
		sleep "$cf_try"
	done
	cf_size=$(wc -c <"$cf_part" 2>/dev/null || echo 0)
	cf_sum=$(sha256sum "$cf_part" 2>/dev/null | cut -d' ' -f1)
	if [ -n "$3" ] && [ "$cf_size" != "$3" ]; then
		CF_XFER_OUT="size mismatch: expected $3 bytes, got $cf_size ($(tail -c 200 "$cf_part.err" 2>/dev/null))"
	elif [ -n "$4" ] && [ "$cf_sum" != "$4" ]; then
		CF_XFER_OUT="SHA-256 mismatch: expected $4, got $cf_sum"
	else
		mv "$cf_part" "$2" && rm -f "$cf_part.err"
		CF_XFER_OUT="downloaded $cf_size bytes, sha256 $cf_sum, after $cf_try attempt(s)"
		return 0
	fi
	rm -f "$cf_part" "$cf_part.err"
	return 75
}

# cf_raw_put FILE URL: a PUT without curl, over openssl s_client (https) or nc (http).
cf_raw_put() {
	cf_rest=${2#*://}
	cf_hostport=${cf_rest%%/*}
	cf_path=/${cf_rest#*/}
	cf_host=${cf_hostport%:*}
	cf_port=${cf_hostport##*:}
	[ "$cf_port" = "$cf_hostport" ] && { case "$2" in https:*) cf_port=443 ;; *) cf_port=80 ;; esac; }
	{
		printf 'PUT %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/octet-stream\r\n' "$cf_path" "$cf_hostport"
		printf 'Content-Length: %s\r\nConnection: close\r\n\r\n' "$(wc -c <"$1")"
		cat "$1"
	} | case "$2" in
	https:*)
		cf_ca=$(cf_cfg ca_file /etc/ssl/certs/ca-certificates.crt)
		openssl s_client -quiet -connect "$cf_host:$cf_port" -servername "$cf_host" -verify_return_error \
			-verify_hostname "$cf_host" -CAfile "$cf_ca" 2>/dev/null
		;;
	*) nc "$cf_host" "$cf_port" ;;
	esac | head -n 1 | cut -d' ' -f2
}

# cf_put FILE URL EXPIRES_AT_MS
cf_put() {
	CF_XFER_OUT=
	if [ "${3:-0}" -gt 0 ] && [ "$(cf_now_ms)" -gt "$3" ]; then
		CF_XFER_OUT="the upload URL expired before the transfer started"
		return 75
	fi
	cf_size=$(wc -c <"$1")
	cf_sum=$(sha256sum "$1" | cut -d' ' -f1)
	if command -v curl >/dev/null 2>&1; then
		# shellcheck disable=SC2046
		cf_code=$(curl -sS -o /dev/null -w '%{http_code}' -T "$1" -H 'content-type: application/octet-stream' \
			--connect-timeout 20 $(cf_ca_args --cacert) "$2" 2>/dev/null)
	else
		cf_code=$(cf_raw_put "$1" "$2")
	fi
	case "$cf_code" in
	2?? | 409)
		CF_XFER_OUT="uploaded $cf_size bytes, sha256 $cf_sum"
		return 0
		;;
	esac
	CF_XFER_OUT="upload failed: HTTP ${cf_code:-error}"
	return 75
}
