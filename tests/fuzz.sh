#!/bin/sh
# fuzz.sh - build the libFuzzer targets with clang (ASan+UBSan) and run each
# for a bounded time over a copy of its seed corpus (and, for the board
# target, the boards in maps/). Any crash, leak or
# sanitizer report fails the run. Usage: tests/fuzz.sh [SECONDS per target]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-${IIOWIRE_FUZZ_SECONDS:-30}}
dir="$top/build/fuzz"
if ! command -v clang >/dev/null; then
	echo "fuzz: SKIPPED: clang is not installed" >&2
	exit 0
fi
CC=clang cmake -S "$top" -B "$dir" -DIIOWIRE_FUZZ=ON -DIIOWIRE_SANITIZE=ON \
	-DIIOWIRE_BUILD_TESTS=OFF -DIIOWIRE_WERROR=OFF >/dev/null
targets=$(cd "$top/tests/fuzz" && ls fuzz_*.c | sed 's/\.c$//')
cmake --build "$dir" -j "$(nproc 2>/dev/null || echo 2)" --target $targets
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for t in $targets; do
	name=${t#fuzz_}
	mkdir -p "$work/$name"
	cp -r "$top/tests/fuzz/corpus/$name/." "$work/$name/" 2>/dev/null || true
	# the shipped boards seed the board target as they are today (a copy lagged)
	[ "$name" != board ] || cp "$top"/maps/*.json "$work/$name/"
	echo "=== fuzz $name (${secs}s) ==="
	if "$dir/tests/fuzz/$t" -max_total_time="$secs" -max_len=8192 -timeout=10 \
		-artifact_prefix="$work/" "$work/$name" >"$work/$name.log" 2>&1; then
		grep -E '^(#[0-9]+ +DONE|Done )' "$work/$name.log" | tail -1
	else
		status=1
		tail -40 "$work/$name.log"
		echo "fuzz $name: FAILED: $(grep -m1 -E 'ERROR:|runtime error:|deadly signal' \
			"$work/$name.log") (crash input kept in build/fuzz/)" >&2
		cp "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$dir/" 2>/dev/null || true
	fi
done
exit $status
