#!/bin/sh
# test_install.sh - what `cmake --install` gives a user: programs that run
# from any prefix without ldconfig or LD_LIBRARY_PATH (an $ORIGIN run path),
# a daemon and CLI that talk to each other from there, the manual pages, and
# pages whose options are exactly the options each program's --help lists.
# Usage: test_install.sh BUILD_DIR SOURCE_DIR [MANPAGES [RPATH]] (ctest
# passes them; MANPAGES OFF: a build without pages; RPATH empty: a build for
# the system's library directory, /usr, whose programs carry no run path and
# find the library only there: then the prefixes get LD_LIBRARY_PATH).
# The last line is "N passed, M failed".
set -u
build=$1
src=$2
manpages=${3:-ON}
rpath=${4-\$ORIGIN}
noenv="env -u LD_LIBRARY_PATH"
. "$src/tests/shtest.sh"
shtest_begin install
check() { # check WHAT COMMAND...: the command must succeed
	what=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		ok
	else
		bad "$what"
		sed 's/^/    /' "$tmp/out" | head -20
	fi
}

# two prefixes, as a user would pick them: /opt-style and ~/.local-style
for prefix in "$tmp/opt/iiowire" "$tmp/home/.local"; do
	check "install into $prefix" cmake --install "$build" --prefix "$prefix"
	[ -n "$rpath" ] || continue
	for prog in bin/iiowire bin/iiowire-hwmon bin/iiowire-board bin/iiowire-mqtt \
	    bin/iiowire-exporter sbin/iiowired; do
		check "$prefix/$prog --version runs without LD_LIBRARY_PATH" \
			$noenv "$prefix/$prog" --version
	done
done
prefix="$tmp/opt/iiowire"
if [ -n "$rpath" ]; then
	check "the CLI carries a run path relative to itself" \
		sh -c "readelf -d '$prefix/bin/iiowire' | grep -q 'RUNPATH.*\\\$ORIGIN'"
else
	libdir=$(dirname "$(find "$prefix" -name 'libiiowire.so.0' | head -1)")
	noenv="env LD_LIBRARY_PATH=$libdir"
fi

$noenv "$prefix/sbin/iiowired" --listen "unix:$tmp/sock" \
	--board "$prefix/share/iiowire/maps/demo.json" --log-level warn &
pids="$pids $!"
shtest_wait_socket "$tmp/sock"
check "installed iiowire lists the installed daemon's devices" \
	sh -c "$noenv '$prefix/bin/iiowire' -a 'unix:$tmp/sock' devices | grep -q '^iio:device1 max1238 0-0035 stargate2-adc$'"
# a /usr build puts its configuration in /etc, outside any --prefix
[ -n "$rpath" ] && check "the installed default config is an empty board" \
	sh -c "$noenv '$prefix/sbin/iiowired' --board '$prefix/etc/iiowire/board.json' --listen 'unix:$tmp/sock2' & p=\$!; sleep 0.5; r=\$(printf 'devices\nquit\n' | $noenv '$prefix/bin/iiowire' -a 'unix:$tmp/sock2' devices; echo rc=\$?); kill \$p; wait \$p; [ \"\$r\" = rc=0 ]"

check "iiowired --list-drivers lists what iiowire-board --list-drivers lists" \
	sh -c "$noenv '$prefix/sbin/iiowired' --list-drivers >'$tmp/l1' && $noenv '$prefix/bin/iiowire-board' --list-drivers >'$tmp/l2' && cmp '$tmp/l1' '$tmp/l2' && grep -q '^max1363 ' '$tmp/l1' && [ \$(wc -l <'$tmp/l1') -ge 60 ]"

[ "$manpages" = OFF ] || for page in man1/iiowire.1 man1/iiowire-board.1 man3/libiiowire.3 man5/iiowire-board.5 \
	man7/iiowire.7 man7/iiowire-iiod.7 man8/iiowired.8 man8/iiowire-hwmon.8 \
	man8/iiowire-mqtt.8 man8/iiowire-exporter.8; do
	check "manual page $page is installed" test -s "$prefix/share/man/$page.gz"
	if command -v man >/dev/null; then
		check "man -l $page renders a NAME line whatis can read" \
			sh -c "MANWIDTH=80 man -l '$prefix/share/man/$page.gz' 2>&1 | grep -A1 '^NAME' | grep -q ' - '"
	fi
done

# opts: the long options a text names, sorted, once each; --help itself
# is left out (a usage text need not list it, a page does)
opts() { grep -oE -- '--[a-z][a-z-]+' | grep -vx -- --help | sort -u; }
# page_opts PAGE.md: the options of a page's SYNOPSIS and OPTIONS sections
page_opts() {
	awk '/^## / { on = ($2 == "SYNOPSIS" || $2 == "OPTIONS") } on' "$1" | opts
}
same_options() { # PROGRAM PAGE.md
	"$1" --help 2>&1 | opts >"$tmp/help"
	page_opts "$2" >"$tmp/page"
	diff "$tmp/help" "$tmp/page"
}
check "iiowired(8) has exactly iiowired --help's options" \
	same_options "$build/server/iiowired" "$src/server/iiowired.8.md"
check "iiowire-hwmon(8) has exactly iiowire-hwmon --help's options" \
	same_options "$build/client/iiowire-hwmon" "$src/client/iiowire-hwmon.8.md"
check "iiowire-board(1) has exactly iiowire-board --help's options" \
	same_options "$build/drivers/iiowire-board" "$src/drivers/tools/iiowire-board.1.md"
check "iiowire-mqtt(8) has exactly iiowire-mqtt --help's options" \
	same_options "$build/client/iiowire-mqtt" "$src/client/iiowire-mqtt.8.md"
check "iiowire-exporter(8) has exactly iiowire-exporter --help's options" \
	same_options "$build/client/iiowire-exporter" "$src/client/iiowire-exporter.8.md"
check "iiowire(1) has exactly iiowire --help's options" \
	same_options "$build/client/iiowire" "$src/client/iiowire.1.md"

shtest_end
