#!/bin/sh
# run-demo.sh - build iiowired and the iiowire command line (installing
# missing packages first) and run the daemon on the emulated demo board:
# localhost:30432 for iiowire's protocol, localhost:30431 for libiio's tools,
# the web page on http://127.0.0.1:30433/ (loopback only: the page can
# write; $IIOWIRE_DEMO_WEB moves it, as the tests do).
# Options after the script's name go to iiowired (e.g. --listen ADDR).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build/demo"
log="$build.log"
web=${IIOWIRE_DEMO_WEB:-127.0.0.1:30433}
say() { echo "run-demo: $*" >&2; }

say "checking build dependencies (on a fresh machine apt-get installs about 40 packages: 1-3 minutes)"
"$top/tests/deps.sh" --build-only
say "building iiowired and iiowire in build/demo (first time: about 30 s; log in build/demo.log)"
mkdir -p "$build"
if ! { cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIIOWIRE_BUILD_TESTS=OFF \
	-DIIOWIRE_MANPAGES=OFF && cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" \
	--target iiowired iiowire_cli; } >"$log" 2>&1; then
	tail -30 "$log" >&2
	say "the build failed; the whole log is $log"
	exit 1
fi
cat >&2 <<EOT
run-demo: starting iiowired on the demo board (maps/demo.json); Ctrl-C stops it.
run-demo: from another terminal:
run-demo:   nc localhost 30432                       then type: devices, read max1363 in_voltage0_raw, quit
run-demo:   $build/client/iiowire devices         the command line (iiowire help; iiowire shell has history)
run-demo:   iio_info -u ip:localhost                 libiio's tools (Debian: libiio-utils)
run-demo:   http://$web/                  the web page, in a browser on this machine
run-demo: manuals: server/iiowired.8.md, client/iiowire.1.md, protocol/PROTOCOL.md; installing: README.md, Install
run-demo: options given to run-demo.sh go on to iiowired (iiowired --help)
EOT
exec "$build/server/iiowired" --board "$top/maps/demo.json" --iiod-listen :30431 \
	--http-listen "$web" "$@"
