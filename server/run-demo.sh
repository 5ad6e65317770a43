#!/bin/sh
# run-demo.sh - build iiowire (installing missing packages) and run iiowired
# on the emulated demo board, listening on localhost:30432. Try it with:
#   nc localhost 30432   then type   devices   or   read max1363 in_voltage0_raw
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/tests/deps.sh" --build-only
cmake -S "$top" -B "$top/build/release" -DIIOWIRE_SANITIZE=OFF >/dev/null
cmake --build "$top/build/release" -j "$(nproc 2>/dev/null || echo 2)"
exec "$top/build/release/server/iiowired" --board "$top/maps/demo.json" "$@"
