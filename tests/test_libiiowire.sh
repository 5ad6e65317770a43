#!/bin/sh
# test_libiiowire.sh - libiiowire as a program outside the tree sees it:
# installed with `cmake --install` into a temporary prefix, found with
# pkg-config, a consumer program written against the API of the issue
# compiled unchanged (-Wall -Werror, C and C++), linked shared and static,
# and run against a live iiowired; the shared library exports iiowire_*
# only and has the soname libiiowire.so.0.
# Usage: test_libiiowire.sh BUILD_DIR SOURCE_DIR [SANITIZE]; with SANITIZE
# ON the library is instrumented, so the programs are built the same way.
# Last line: "N passed, M failed".
set -u
build=$1
san=""
case ${3:-OFF} in ON | on | 1 | TRUE | true) san="-fsanitize=address,undefined" ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iiowire-lib-XXXXXX")
prefix=$tmp/prefix
passed=0
failed=0
dpid=""

cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

result() {
	if [ "$2" = 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL: $1"
		[ -s "$tmp/log" ] && sed 's/^/  /' "$tmp/log"
	fi
	: >"$tmp/log"
}

cmake --install "$build" --prefix "$prefix" >"$tmp/log" 2>&1
result "cmake --install" $?
pcdir=$(dirname "$(find "$prefix" -name libiiowire.pc | head -1)")
export PKG_CONFIG_PATH="$pcdir"
libdir=$(pkg-config --variable=libdir libiiowire)
[ -f "$prefix/include/iiowire.h" ] && [ -e "$libdir/libiiowire.so.0" ] && [ -f "$libdir/libiiowire.a" ] &&
	[ -x "$prefix/bin/iiowire" ] && [ -x "$prefix/bin/iiowire-hwmon" ]
result "installed files" $?

# The consumer program: only the names and shapes the issue lists.
cat >"$tmp/consumer.c" <<'EOF'
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <iiowire.h>

int main(int argc, char **argv)
{
	struct iiowire *w = iiowire_connect(argc > 1 ? argv[1] : NULL, 2000);
	struct iiowire_channel *ch, **all;
	enum iio_chan_type type;
	char buf[64];
	int val, val2, fmt, i;

	if (!w) {
		fprintf(stderr, "connect: %s\n", strerror(errno));
		return 1;
	}
	if (iiowire_attr_read(w, "max1238", "in_voltage0_raw", buf, sizeof(buf)) < 0)
		return 2;
	if (iiowire_attr_write(w, "dummy0", "out_voltage0_raw", "3") != 0)
		return 3;
	ch = iiowire_channel_get(w, "iio_hwmon.0", NULL);
	if (!ch)
		return 4;
	if (iiowire_read_channel_raw(ch, &val) < 0)
		return 5;
	fmt = iiowire_read_channel_scale(ch, &val, &val2);
	if (fmt != 11 || iiowire_read_channel_offset(ch, &val, &val2) != -EINVAL)
		return 6;
	if (iiowire_get_channel_type(ch, &type) != 0 || type != IIO_VOLTAGE)
		return 7;
	if (iiowire_read_channel_processed(ch, &val) != 0)
		return 8;
	printf("%s %d", buf, val);
	iiowire_channel_release(ch);
	all = iiowire_channel_get_all(w, "iio_hwmon.0");
	for (i = 0; all && all[i]; i++)
		if (iiowire_read_channel_processed(all[i], &val) == 0)
			printf(" %d", val);
	printf("\n");
	iiowire_channel_release_all(all);
	iiowire_close(w);
	return 0;
}
EOF

cc -std=c11 -Wall -Wextra -Werror $san $(pkg-config --cflags libiiowire) -o "$tmp/consumer" \
	"$tmp/consumer.c" $(pkg-config --libs libiiowire) >"$tmp/log" 2>&1
result "compile and link (shared) with pkg-config" $?
cc -std=c11 -Wall -Wextra -Werror $san $(pkg-config --cflags libiiowire) -o "$tmp/consumer-static" \
	"$tmp/consumer.c" "$libdir/libiiowire.a" $(pkg-config --static --libs libiiowire | sed "s/-liiowire//") >"$tmp/log" 2>&1
result "link the static library" $?
if command -v c++ >/dev/null 2>&1; then
	printf '#include <iiowire.h>\nint main() { return iiowire_connect("x:1", 1) ? 0 : 1; }\n' \
		>"$tmp/cxx.cc"
	c++ -Wall -Werror $san $(pkg-config --cflags libiiowire) -o "$tmp/cxx" "$tmp/cxx.cc" \
		$(pkg-config --libs libiiowire) >"$tmp/log" 2>&1
	result "the header in C++" $?
fi

# exports: iiowire_* only; soname
nm -D --defined-only "$libdir/libiiowire.so" | awk '$2 ~ /^[TDBRW]$/ { print $3 }' |
	sed 's/@.*//' >"$tmp/syms"
! grep -v '^iiowire_' "$tmp/syms" >"$tmp/log" && grep -q '^iiowire_connect$' "$tmp/syms"
result "exported symbols are iiowire_* only" $?
readelf -d "$libdir/libiiowire.so" | grep -q 'SONAME.*\[libiiowire.so.0\]'
result "soname libiiowire.so.0" $?

# run both against a daemon
cat >"$tmp/board.json" <<'EOF'
{"board": "libtest", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [{"driver": "iio_dummy", "name": "dummy0"},
  {"driver": "max1238", "bus": "i2c-0", "address": "0x35",
   "emulate": {"AIN0": 3300, "AIN1": 1000, "AIN2": 2000, "AIN3": 1250}}],
 "maps": [
  {"adc_dev_name": "0-0035", "adc_channel_label": "AIN1", "consumer_dev_name": "iio_hwmon.0",
   "consumer_channel": "testchan1"},
  {"adc_dev_name": "0-0035", "adc_channel_label": "AIN2", "consumer_dev_name": "iio_hwmon.0",
   "consumer_channel": "testchan2"}]}
EOF
"$build/server/iiowired" --listen "unix:$tmp/sock" --board "$tmp/board.json" --log-level error &
dpid=$!
i=0
while [ $i -lt 200 ] && ! [ -S "$tmp/sock" ]; do i=$((i + 1)); sleep 0.05; done
out=$(LD_LIBRARY_PATH="$libdir" "$tmp/consumer" "unix:$tmp/sock" 2>"$tmp/log")
[ "$out" = "3300 1000 1000 2000" ]
result "shared consumer against the daemon (got '$out')" $?
out=$(IIOWIRE_ADDRESS="unix:$tmp/sock" "$tmp/consumer-static" 2>"$tmp/log")
[ "$out" = "3300 1000 1000 2000" ]
result "static consumer against the daemon, \$IIOWIRE_ADDRESS (got '$out')" $?

echo "test_libiiowire: $passed passed, $failed failed"
echo "$passed passed, $failed failed"
[ $failed = 0 ]
