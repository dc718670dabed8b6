#!/bin/sh
# Builds cellfleet-agent_<version>_all.ipk without the OpenWrt SDK (the same files the Makefile
# installs), so CI can check its size and contents: `sh build-ipk.sh OUTDIR` prints the file's path.
set -eu
cd "$(dirname "$0")"
out=${1:-.}
version=$(sed -n 's/^PKG_VERSION:=//p' Makefile)-$(sed -n 's/^PKG_RELEASE:=//p' Makefile)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/data/usr/lib/cellfleet" "$work/data/etc/init.d" "$work/data/etc/config" \
	"$work/data/etc/hotplug.d/iface" "$work/control"
cp files/lib/*.sh "$work/data/usr/lib/cellfleet/"
cp files/cellfleet.init "$work/data/etc/init.d/cellfleet"
cp files/cellfleet.config "$work/data/etc/config/cellfleet"
cp files/cellfleet.hotplug "$work/data/etc/hotplug.d/iface/95-cellfleet"
chmod 755 "$work/data/etc/init.d/cellfleet"
cat >"$work/control/control" <<CONTROL
Package: cellfleet-agent
Version: $version
Depends: libc, mosquitto-client-ssl, jq, openssl-util, ip-tiny, ca-bundle
Architecture: all
Section: admin
Description: Cellfleet agent: reports the router to a Cellfleet console and runs its commands
CONTROL
printf '/etc/config/cellfleet\n' >"$work/control/conffiles"
# shellcheck disable=SC2016 # the variable is the installed script's
printf '#!/bin/sh\n[ -n "$IPKG_INSTROOT" ] || /etc/init.d/cellfleet enable\nexit 0\n' >"$work/control/postinst"
chmod 755 "$work/control/postinst"
tar -C "$work/data" --owner=0 --group=0 -czf "$work/data.tar.gz" .
tar -C "$work/control" --owner=0 --group=0 -czf "$work/control.tar.gz" .
echo 2.0 >"$work/debian-binary"
mkdir -p "$out"
ipk="$(cd "$out" && pwd)/cellfleet-agent_${version}_all.ipk"
rm -f "$ipk"
# OpenWrt's ipkg-build makes the outer archive a gzipped tar (opkg reads that and the ar form).
tar -C "$work" --owner=0 --group=0 -czf "$ipk" ./debian-binary ./control.tar.gz ./data.tar.gz
echo "$ipk"
