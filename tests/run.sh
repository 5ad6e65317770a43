#!/bin/sh
# run.sh - the one test command: install missing packages, build iiowire
# twice (release with -Werror, and ASan+UBSan) and run every ctest suite in
# both trees (libiio 1.0 built first into its cache for test_libiio1_sh),
# the live suites again with the daemon under valgrind, the fuzz targets,
# and the container image. CUnit prints each suite's summary.
# The run ends with a summary: each tier passed, FAILED or skipped, and the
# time it took; under a failed tier each failing suite (or script check)
# with its first failing line. The exit status is non-zero if anything
# failed.
# Usage: tests/run.sh [--quick | --kernel-rig] [REGEX]
#   REGEX    only the ctest suites matching REGEX, in both trees
#   --quick  only the release tree and its `unit` suites (ctest -L unit: the
#            suites that start no daemon), and only the build's packages
#   --kernel-rig  only the kernel-rig tier (tests/kernel_rig.sh): iiowire's
#            drivers against Linux 6.1's in a QEMU guest, one guest per
#            tests/kernel-rig/*.conf (REGEX: only the confs whose name matches)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
quick=""
rig=""
if [ "${1:-}" = --quick ]; then
	quick=1
	shift
elif [ "${1:-}" = --kernel-rig ]; then
	rig=1
	shift
fi
filter=${1:-}
if [ -n "$quick" ] || [ -n "$rig" ]; then
	"$top/tests/deps.sh" --build-only || exit
else
	"$top/tests/deps.sh" || exit
fi
jobs=$(nproc 2>/dev/null || echo 2)
logs=$(mktemp -d /tmp/iiowire-run-XXXXXX)
trap 'rm -rf "$logs"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
# the suites' temporary files ($TMPDIR) are this run's, and go with it:
# also what a suite killed at its timeout, or by a sanitizer, left there
# (test_firstrun.sh's unprivileged user goes through it: not 700)
chmod 755 "$logs"
mkdir -m 1777 "$logs/tmp"
status=0

# VARIANT [CTEST ARGS...]: configure and build build/VARIANT, run its suites
build_and_test() {
	variant=$1
	shift
	dir="$top/build/$variant"
	san=OFF
	[ "$variant" = asan ] && san=ON
	if ! { cmake -S "$top" -B "$dir" -DIIOWIRE_SANITIZE=$san \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null && cmake --build "$dir" -j "$jobs"; }; then
		echo "FAIL: the $variant build"
		return 1
	fi
	echo "=== iiowire tests ($variant) ==="
	# ASan's leak checker needs ptrace-free operation; keep reports terse
	TMPDIR="$logs/tmp" ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --test-dir "$dir" --output-on-failure -j "$jobs" "$@"
}

# failures LOG: each failing ctest suite in LOG with its first failing line
# (a FAIL line, CUnit's numbered assertion, a sanitizer or valgrind error,
# a traceback), then each failing line outside the suites (a compiler
# error, a script's "FAIL"); the last line of LOG if none of them is there
failures() {
	awk '
	function flush() {
		if (suite != "")
			printf "    %s (%s): %s\n", suite, why,
				line != "" ? line : "no failing line; its last: " (slast != "" ? slast : "(none)")
		suite = ""
	}
	function trim(s) { sub(/^[ \t]+/, "", s); return s }
	/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: / {
		flush()
		insuite = 0
		if ($0 ~ /\*\*\*/ && $0 !~ /\*\*\*Skipped/) {
			suite = $4
			why = substr($0, index($0, "***") + 3)
			sub(/ +[0-9.]+ sec$/, "", why)
			line = slast = ""
			insuite = 1
			found++
		}
		next
	}
	/^[0-9]+% tests passed/ { flush(); insuite = 0; next }
	insuite {
		if (line == "" && $0 !~ /\.\.\.FAILED$|^FAILED$/ &&
		    $0 ~ /FAIL|^ +[0-9]+\. [^ ]+:[0-9]+ |Sanitizer|runtime error:|Traceback|==[0-9]+== /)
			line = trim($0)
		if (NF)
			slast = trim($0)
		next
	}
	/^=== valgrind report / { vg = $4; found++; next }
	vg != "" && /^==[0-9]+== (Invalid|Conditional|Use of|Syscall|Mismatched|[0-9,]+ bytes in)/ {
		printf "    valgrind report %s: %s\n", vg, $0
		vg = ""
	}
	/error:|CMake Error|^[a-z0-9_]+( [a-z_]+)?: FAIL|^valgrind: no daemon/ {
		if ($0 ~ /error:/ && errors++)
			next
		printf "    %s\n", $0
		found++
	}
	NF { last = $0 }
	END {
		flush()
		if (vg != "")
			printf "    valgrind report %s\n", vg
		if (!found)
			printf "    (no failing line found; its last line: %s)\n", last
	}' "$1"
}

# tier NAME COMMAND...: COMMAND's output to the terminal and to the tier's
# log; its verdict, time and failures to the summary
tier() {
	name=$1
	shift
	t0=$(date +%s)
	{ "$@" 2>&1; echo $? >"$logs/rc"; } | tee "$logs/$name.log"
	rc=$(cat "$logs/rc")
	secs=$(($(date +%s) - t0))
	if [ "$rc" -ne 0 ]; then
		verdict=FAILED
		status=1
	elif grep -qE '^[a-z0-9_]+: SKIPPED' "$logs/$name.log"; then
		verdict=skipped
	else
		verdict=passed
	fi
	printf '%-16s %-8s %3d min %02d s\n' "$name" "$verdict" $((secs / 60)) $((secs % 60)) \
		>>"$logs/summary"
	[ "$verdict" != skipped ] ||
		grep -m1 -E '^[a-z0-9_]+: SKIPPED' "$logs/$name.log" | sed 's/^/    /' >>"$logs/summary"
	[ "$rc" -eq 0 ] || failures "$logs/$name.log" >>"$logs/summary"
}

if [ -n "$rig" ]; then
	# the release tree's three programs, then a guest per conf (needs root)
	confs=$(ls "$top"/tests/kernel-rig/*.conf | grep -E -- "${filter:-.}")
	# shellcheck disable=SC2086 # one argument per conf
	tier "kernel rig" env JOBS="$jobs" "$top/tests/kernel_rig.sh" "$top/build/release" $confs
elif [ -n "$quick" ]; then
	tier "release unit" build_and_test release -L '^unit$' ${filter:+-R "$filter"}
else
	# libiio 1.0 from ../shared/third_party/ into its cache, before the suites
	# that use it (test_libiio1_sh; built once, skipped where ../shared is absent)
	[ -n "$filter" ] || tier libiio1 env LIBIIO1_JOBS="$jobs" sh "$top/tests/libiio1.sh"
	tier "release ctest" build_and_test release ${filter:+-R "$filter"}
	tier "asan ctest" build_and_test asan ${filter:+-R "$filter"}
fi
if [ -z "$filter" ] && [ -z "$quick" ] && [ -z "$rig" ]; then
	# the daemon under valgrind memcheck: the live suites again on the release
	# build, every iiowired they start wrapped; any leak or memory error fails
	echo "=== iiowire daemon under valgrind (live suites) ==="
	tier valgrind env TMPDIR="$logs/tmp" "$top/tests/valgrind.sh" "$top/build/release"
	# whole-program checks that need no second run per build variant
	echo "=== iiowire fuzzing (libFuzzer, ${IIOWIRE_FUZZ_SECONDS:-30} s per target) ==="
	tier fuzz "$top/tests/fuzz.sh"
	echo "=== iiowire container image and compose ==="
	tier container "$top/tests/container.sh"
fi
echo "=== iiowire test summary ==="
cat "$logs/summary"
[ $status -eq 0 ] && echo "iiowire: all tests passed" || echo "iiowire: TESTS FAILED" >&2
exit $status
