#!/bin/sh
# Shared by the stand-ins for OpenWrt-only programs (test/README.md): log the call, print a
# recorded output. Sourced by each stand-in.
# shellcheck disable=SC2034 # FIXTURES is for the stand-ins that source this file
FIXTURES=${CELLFLEET_FIXTURES:?the fixtures directory}
printf '%s %s\n' "${0##*/}" "$*" >>"${CELLFLEET_STANDIN_LOG:?the stand-ins log}"
