#!/bin/sh
# test_firstrun.sh - what a new user meets first: tests/deps.sh as a normal
# user without sudo says what to install instead of dying, and
# server/run-demo.sh (README's first command, with --listen on a free port
# so that it runs beside other tests) says what it does, builds, prints how
# to talk to the daemon, and serves README's nc session and libiio's port.
# Usage: test_firstrun.sh SOURCE_DIR. The last line is "N passed, M failed".
set -u
src=$1
. "$src/tests/shtest.sh"
shtest_begin firstrun
chmod 755 "$tmp"

# deps.sh, unprivileged and without sudo, with one package missing (a
# dpkg-query that knows of no package stands in for a bare machine). The
# user runs a copy in $tmp: the checkout may be where it cannot read (a
# clone under /root, mode 700)
mkdir "$tmp/bin"
cp "$src/tests/deps.sh" "$tmp/deps.sh"
chmod 644 "$tmp/deps.sh"
for c in sh id grep echo cat; do ln -s "$(command -v $c)" "$tmp/bin/$c"; done
printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/dpkg-query"
chmod 755 "$tmp/bin/dpkg-query"
if command -v setpriv >/dev/null && [ "$(id -u)" -eq 0 ]; then
	(cd "$tmp" && setpriv --reuid=65534 --regid=65534 --clear-groups env PATH="$tmp/bin" \
		sh "$tmp/deps.sh" --build-only) >"$tmp/deps.out" 2>&1
	rc=$?
	if [ $rc -eq 1 ] && grep -q "install them as root" "$tmp/deps.out" &&
		grep -q "missing:.*libuv1-dev" "$tmp/deps.out" && ! grep -q "not found" "$tmp/deps.out"; then
		ok
	else
		bad "deps.sh without sudo (exit $rc): $(cat "$tmp/deps.out")"
	fi
fi

port=$((30600 + $$ % 300))
wport=$(shtest_free_port 1)
IIOWIRE_DEMO_WEB=127.0.0.1:$wport sh "$src/server/run-demo.sh" --listen "127.0.0.1:$port" \
	>"$tmp/demo.out" 2>&1 &
demo=$!
pids="$pids $demo"
i=0
# until it listens, or the script ended (a failed build, a port in use)
until grep -q "listening on 127.0.0.1:$port" "$tmp/demo.out" || [ $i -ge 600 ] ||
	! kill -0 $demo 2>/dev/null; do
	sleep 0.5
	i=$((i + 1))
done
grep -q "listening on 127.0.0.1:$port" "$tmp/demo.out" ||
	bad "run-demo.sh never served: $(tail -5 "$tmp/demo.out")"
for line in "checking build dependencies" "building iiowired and iiowire in build/demo" \
	"nc localhost 30432" "build/demo/client/iiowire devices" "iio_info -u ip:localhost" \
	"http://127.0.0.1:$wport/ " "options given to run-demo.sh go on to iiowired"; do
	if grep -q "$line" "$tmp/demo.out"; then ok; else bad "run-demo.sh never said '$line'"; fi
done
# README's session: the block after "$ nc localhost 30432"; requests are the
# lines that are not replies; live integers in replies are compared as N
awk '/^\$ nc localhost 30432/ { f = 1; next } f && /^```/ { exit } f' "$src/README.md" >"$tmp/readme"
isreply='^(OK|ERR|\{"id":[0-9]+,"ok")'
grep -vE "$isreply" "$tmp/readme" >"$tmp/requests"
live() { sed -E 's/^OK [0-9]+$/OK N/; s/"value":"[0-9]+"/"value":"N"/'; }
grep -E "$isreply" "$tmp/readme" | live >"$tmp/expect"
nc -q 2 127.0.0.1 "$port" <"$tmp/requests" | live >"$tmp/got"
if [ -s "$tmp/requests" ] && cmp -s "$tmp/expect" "$tmp/got"; then
	ok
else
	bad "README's nc session: $(diff "$tmp/expect" "$tmp/got")"
fi
if "$src/build/demo/client/iiowire" -a "127.0.0.1:$port" devices | grep -q '^iio:device1 max1238'; then
	ok
else
	bad "the CLI run-demo.sh names"
fi
# the web page it names, on loopback only (README, Quick start)
if curl -s "http://127.0.0.1:$wport/" | grep -q '<html' &&
	grep -q "listening for HTTP and WebSocket on 127.0.0.1:$wport" "$tmp/demo.out"; then
	ok
else
	bad "the web page run-demo.sh names: $(grep HTTP "$tmp/demo.out")"
fi
if command -v iio_info >/dev/null; then
	if iio_info -u ip:127.0.0.1 2>&1 | grep -q 'max1363'; then ok; else bad "iio_info on the demo's iiod port"; fi
fi
shtest_end
