#!/bin/sh
# deps.sh - install what building and testing iiowire needs on Debian 12,
# only the packages that are missing. Sourced or run by tests/run.sh and
# server/run-demo.sh; safe to run again. Needs root or sudo for apt-get.
set -e
IIOWIRE_BUILD_DEPS="build-essential cmake pkg-config linux-libc-dev libuv1-dev libcjson-dev libcunit1-dev libi2c-dev libsystemd-dev libavahi-client-dev go-md2man file libreadline-dev netcat-openbsd libmosquitto-dev libmicrohttpd-dev libwebsockets-dev libwebsockets-evlib-uv libjs-dygraphs libgpiod-dev libzstd-dev"
IIOWIRE_TEST_DEPS="valgrind clang libclang-rt-14-dev prometheus-node-exporter lm-sensors libiio-utils python3-libiio curl lintian mosquitto mosquitto-clients prometheus iiod python3-websocket python3-selenium chromium chromium-driver"
# the commands the tests run that a minimal debian:bookworm lacks: ip and ss
# (iproute2), python3, openssl (MQTT over TLS), man (man-db: test_install's
# manual pages), systemd-socket-activate (systemd), xmllint (libxml2-utils:
# the iiod XML against its DTD); without them rows fail or are skipped
IIOWIRE_TEST_DEPS="$IIOWIRE_TEST_DEPS iproute2 python3 openssl man-db systemd libxml2-utils"
# what tests/libiio1.sh needs to build libiio 1.0 from ../shared/third_party/
# (its XML, its iiod's parser, zstd metadata, its USB and serial backends)
IIOWIRE_TEST_DEPS="$IIOWIRE_TEST_DEPS xz-utils bison flex libxml2-dev libzstd-dev libaio-dev libusb-1.0-0-dev libserialport-dev"

want="$IIOWIRE_BUILD_DEPS"
[ "${1:-}" = "--build-only" ] || want="$want $IIOWIRE_TEST_DEPS"
missing=""
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "iiowire: installing$missing" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null; then
		echo "iiowire: these Debian packages are missing:$missing" >&2
		echo "iiowire: install them as root (su -c 'apt-get install$missing'), then run this again" >&2
		exit 1
	fi
	SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y -q $missing >/dev/null 2>&1 || {
	$SUDO apt-get update -q >/dev/null
	$SUDO apt-get install -y -q $missing >/dev/null
}
