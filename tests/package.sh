#!/bin/sh
# package.sh - the Debian packages as README's "Install" section makes and
# installs them: its commands are read from README.md and run as written,
# the packages checked with lintian (errors fail, but for the maintainer
# address, which the packager sets: IIOWIRE_DEB_MAINTAINER), then installed
# in a fresh debian:bookworm container where the daemon and the CLI run from
# PATH, the manual pages are there, the packaged board is the empty one,
# systemd-analyze verifies the installed units, and with a real avahi-daemon
# the daemon announces itself and libiio's `iio_info -S` finds it. Called by container.sh
# (it needs podman and the local base image); exit 0 with SKIPPED without.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
name=iiowire-pkgtest-$$
fail() { echo "package: FAIL: $*" >&2; podman rm -f -t 1 "$name" >/dev/null 2>&1; exit 1; }
# the commands, build log and lintian report go with the run, passed or not
trap 'rm -f "/tmp/$name.cmds" "/tmp/$name.build" "/tmp/$name.lintian"' EXIT
command -v podman >/dev/null || { echo "package: SKIPPED: no podman" >&2; exit 0; }

# the README's block: the lines of the first ```sh fence after "### Debian packages"
awk '/^### Debian packages/ { s = 1 } s && /^```sh/ { f = 1; next } f && /^```/ { exit } f' \
	README.md >/tmp/$name.cmds
grep -q cpack /tmp/$name.cmds || fail "README.md has no Debian packages block"
host_cmds=$(grep -v 'apt install' /tmp/$name.cmds)
inst_cmd=$(grep 'apt install' /tmp/$name.cmds)
[ -n "$inst_cmd" ] || fail "README.md's block does not install the packages"
echo "package: building as README says"
rm -rf build/pkg
sh -ec "$host_cmds" >/tmp/$name.build 2>&1 || { tail -30 /tmp/$name.build; fail "package build"; }
ls build/pkg/*.deb || fail "no packages in build/pkg"
for p in iiowire iiowire-tools libiiowire0 libiiowire-dev iiowire-mqtt iiowire-exporter; do
	ls build/pkg/${p}_*.deb >/dev/null 2>&1 || fail "package $p missing"
done

if command -v lintian >/dev/null; then
	lintian build/pkg/*.deb >/tmp/$name.lintian 2>&1
	errors=$(grep '^E:' /tmp/$name.lintian | grep -v 'bogus-mail-host')
	[ -z "$errors" ] || { echo "$errors"; fail "lintian errors"; }
	echo "package: lintian: no errors ($(grep -c '^W:' /tmp/$name.lintian) warnings)"
fi

echo "package: installing in a fresh debian:bookworm container: $inst_cmd"
script=$(cat <<SCRIPT
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q sudo systemd avahi-daemon dbus libiio-utils >/dev/null 2>&1
# the one answer a user types at apt's prompt
echo 'APT::Get::Assume-Yes "true";' >/etc/apt/apt.conf.d/90assume-yes
cd /src
$inst_cmd
command -v iiowired iiowire iiowire-hwmon iiowire-board
test -s /usr/share/man/man8/iiowired.8.gz
test -s /usr/share/man/man7/iiowire.7.gz
test -s /usr/share/man/man3/libiiowire.3.gz
test -e /usr/lib/x86_64-linux-gnu/libiiowire.so.0
test -e /usr/include/iiowire.h
systemd-analyze verify --man=no /lib/systemd/system/iiowired.service \
	/lib/systemd/system/iiowired.socket /lib/systemd/system/iiowired-iiod.socket
iiowired --board /usr/share/iiowire/maps/demo.json --listen unix:/tmp/s --log-level warn &
p=\$!
i=0; while [ ! -S /tmp/s ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i + 1)); done
iiowire -a unix:/tmp/s devices
iiowire -a unix:/tmp/s read max1238 in_voltage_scale
kill \$p; wait \$p || true
iiowired --listen unix:/tmp/e --log-level warn --board /etc/iiowire/board.json &
p=\$!
i=0; while [ ! -S /tmp/e ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i + 1)); done
echo "empty: \$(iiowire -a unix:/tmp/e devices | wc -l)"
kill \$p; wait \$p || true
# DNS-SD: a real avahi-daemon, and libiio's scan finding the iiod listener
mkdir -p /run/dbus
dbus-daemon --system --fork
avahi-daemon -D --no-drop-root --no-chroot
iiowired --board /usr/share/iiowire/maps/demo.json --listen 0.0.0.0:30432 \
	--iiod-listen 0.0.0.0:30431 >/tmp/mdns.log 2>&1 &
p=\$!
i=0; until grep -q 'announced .* _iio._tcp' /tmp/mdns.log || [ \$i -ge 100 ]; do sleep 0.1; i=\$((i + 1)); done
cat /tmp/mdns.log
echo "scan: \$(iio_info -S 2>&1 | tr '\n' ' ')"
kill \$p; wait \$p || true
SCRIPT
)
out=$(podman run --rm --name "$name" -v "$top/build/pkg:/src/build/pkg:ro" debian:bookworm \
	sh -c "$script" 2>&1) || { echo "$out" | tail -30; fail "install and run in the container"; }
echo "$out" | grep -q '^iio:device1 max1238 0-0035 stargate2-adc$' ||
	{ echo "$out" | tail -20; fail "iiowire devices from PATH"; }
echo "$out" | grep -qx '1.000000000' || { echo "$out" | tail -20; fail "iiowire read from PATH"; }
echo "$out" | grep -qx 'empty: 0' || { echo "$out" | tail -20; fail "the packaged board is not empty"; }
echo "$out" | grep -q "announced .* _iiowire._tcp on port 30432" ||
	{ echo "$out" | tail -20; fail "no _iiowire._tcp announcement"; }
echo "$out" | grep -q '^scan: .*max1238.*\[ip:' ||
	{ echo "$out" | tail -20; fail "iio_info -S did not find the iiod listener"; }
echo "package: installed in debian:bookworm; iiowired and iiowire answer from PATH"
