#!/bin/sh
# run.sh - the one test command: install missing packages, build iiowire
# twice (release with -Werror, and ASan+UBSan) and run every ctest suite in
# both trees. CUnit prints each suite's summary; the exit status is non-zero
# if anything failed. Usage: tests/run.sh [ctest -R regex]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/tests/deps.sh"
jobs=$(nproc 2>/dev/null || echo 2)
filter=""
[ -n "${1:-}" ] && filter="-R $1"
status=0
for variant in release asan; do
	dir="$top/build/$variant"
	san=OFF
	[ "$variant" = asan ] && san=ON
	cmake -S "$top" -B "$dir" -DIIOWIRE_SANITIZE=$san -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build "$dir" -j "$jobs"
	echo "=== iiowire tests ($variant) ==="
	# ASan's leak checker needs ptrace-free operation; keep reports terse
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --test-dir "$dir" --output-on-failure $filter -j "$jobs" || status=1
done
# the daemon under valgrind memcheck: the live suites again on the release
# build, every iiowired they start wrapped; any leak or memory error fails
if [ -z "$filter" ]; then
	echo "=== iiowire daemon under valgrind (live suites) ==="
	"$top/tests/valgrind.sh" "$top/build/release" || status=1
fi
# whole-program checks that need no second run per build variant
if [ -z "$filter" ]; then
	echo "=== iiowire fuzzing (libFuzzer, ${IIOWIRE_FUZZ_SECONDS:-30} s per target) ==="
	"$top/tests/fuzz.sh" || status=1
	echo "=== iiowire container image and compose ==="
	"$top/tests/container.sh" || status=1
fi
[ $status -eq 0 ] && echo "iiowire: all tests passed" || echo "iiowire: TESTS FAILED" >&2
exit $status
