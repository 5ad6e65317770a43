#!/bin/sh
# valgrind.sh - the daemon's live suites (tests/test_server_*.c, and
# tests/test_kernel.sh's kernel devices on a fake tree, and the
# iiowire-exporter runs of tests/test_exporter.sh, the streams of
# tests/test_capture.sh and tests/test_libiio_stream.sh, libiio 1.0's clients
# of tests/test_libiio1.sh, and the GPIO
# interrupt lines of tests/test_gpio.sh) with every
# iiowired they start running under valgrind memcheck, through srvtest.h's
# $IIOWIRE_TEST_WRAPPER. A failing suite, or any memory error or leak
# (definite, indirect or possible) in any daemon run, fails the whole run;
# each daemon's report is printed when it is not clean. valgrind needs a
# build without sanitizers: BUILD_DIR (default build/release, the one
# run.sh makes; configured here if missing, and brought up to date).
# Suites run one at a time: their timing checks allow for valgrind
# (srvtest_slow()), not for a busy CPU as well. About 100 s on 2 cores.
# Usage: tests/valgrind.sh [BUILD_DIR [ctest -R regex]]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build/release}
filter=${2:-^test_server_|^test_kernel_sh\$|^test_exporter_sh\$|^test_capture_sh\$|^test_libiio_stream_sh\$|^test_libiio1_sh\$|^test_gpio_sh\$}
if ! command -v valgrind >/dev/null; then
	echo "valgrind: SKIPPED: valgrind is not installed" >&2
	exit 0
fi
if grep -q '^IIOWIRE_SANITIZE:BOOL=ON' "$dir/CMakeCache.txt" 2>/dev/null; then
	echo "valgrind: $dir is a sanitizer build; valgrind cannot run it" >&2
	exit 2
fi
[ -f "$dir/CMakeCache.txt" ] ||
	cmake -S "$top" -B "$dir" -DIIOWIRE_SANITIZE=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
logs=$(mktemp -d /tmp/iiowire-valgrind.XXXXXX)
trap 'rm -rf "$logs"' EXIT
# srvtest.h splits this at blanks: no blanks inside the words
IIOWIRE_TEST_WRAPPER="valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible"
IIOWIRE_TEST_WRAPPER="$IIOWIRE_TEST_WRAPPER --errors-for-leak-kinds=definite,indirect,possible"
IIOWIRE_TEST_WRAPPER="$IIOWIRE_TEST_WRAPPER --error-exitcode=97 --log-file=$logs/vg.%p.log"
export IIOWIRE_TEST_WRAPPER
status=0
start=$(date +%s)
ctest --test-dir "$dir" -R "$filter" --output-on-failure -j 1 || status=1
runs=$(find "$logs" -name 'vg.*.log' | wc -l)
if [ "$runs" -eq 0 ]; then
	echo "valgrind: no daemon ran under valgrind (does srvtest.h honour IIOWIRE_TEST_WRAPPER?)" >&2
	status=1
fi
# every report ends with its summary; leaks count as errors (--errors-for-leak-kinds)
bad=0
for f in "$logs"/vg.*.log; do
	[ -e "$f" ] || continue
	if ! grep -q 'ERROR SUMMARY: 0 errors' "$f"; then
		echo "=== valgrind report $(basename "$f") ==="
		cat "$f"
		bad=$((bad + 1))
		status=1
	fi
done
echo "valgrind: $runs daemon run(s), $bad with errors or leaks, $(($(date +%s) - start)) s"
exit $status
