#!/usr/bin/env bash
# Installs what nagc needs beyond Go modules: METIS's gpmetis (Debian package `metis`)
# for the METIS baseline. Safe to run repeatedly; does nothing when gpmetis is present.
set -euo pipefail
if command -v gpmetis >/dev/null 2>&1 || [ -n "${NAGC_GPMETIS:-}" ]; then
	exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
		echo "install-deps: gpmetis is missing and this user cannot install packages; install METIS (Debian/Ubuntu: apt-get install metis) or set NAGC_GPMETIS" >&2
		exit 1
	fi
fi
if command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: installing metis (gpmetis) with apt-get" >&2
	$SUDO apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq metis >/dev/null
elif command -v brew >/dev/null 2>&1; then
	brew install metis
else
	echo "install-deps: no apt-get or brew; install METIS's gpmetis yourself or set NAGC_GPMETIS" >&2
	exit 1
fi
command -v gpmetis >/dev/null
