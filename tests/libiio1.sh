#!/bin/sh
# libiio1.sh - libiio 1.0 (the library, iiod 1.0, its tools, its tests/api
# programs and its Python bindings) built from the unmodified archive in
# ../shared/third_party/ (beside the project's clone; CI's has it) into a
# cache outside the clone, for tests/test_libiio1.sh and
# bench/libiio1_compare.sh. Never installed into /usr (Debian's libiio 0.24
# stays what its tools load) nor into the project.
#
# The cache is ${XDG_CACHE_HOME:-$HOME/.cache}/iiowire/libiio-1.0-4e3cfe61-HASH
# (HASH: the archive's sha256, so another archive is another build); it is
# built once, when its stamp is missing. Inside it: prefix/ (bin, sbin/iiod,
# lib/libiio.so.1), prefix/libexec/api/ (tests/api, built with TESTS_DEBUG so
# they print their PASS/FAIL lines) and prefix/python/iio (the bindings: pure
# ctypes, which its CMake does not build and Debian's setuptools 66 cannot
# install, pyproject.toml wanting 77; used from there by PYTHONPATH).
# LIBIIO_COMPAT is off: its libiio.so.0 would stand in for Debian's 0.24
# library for any 0.24 tool run with the prefix's LD_LIBRARY_PATH.
# DNS-SD is off: iiod 1.0 then exits at once on SIGTERM (facts file).
#
# Usage: tests/libiio1.sh            build if missing; the last line says where
#        tests/libiio1.sh --prefix   print the prefix (built or not), build nothing
# Where the archive is absent it prints "libiio1: SKIPPED: ..." with how to get
# libiio 1.0 and exits 0; that is the one case it exits 0 without a prefix.
# LIBIIO1_TARBALL overrides the archive, LIBIIO1_JOBS the build's -j (nproc).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
name=libiio-1.0-4e3cfe61
tarball=${LIBIIO1_TARBALL:-$top/../shared/third_party/$name.tar.xz}

if [ ! -f "$tarball" ]; then
	echo "libiio1: SKIPPED: $tarball is absent, so there is no libiio 1.0 to test with"
	echo "libiio1: to get it, put the archive there: it is 'git archive --prefix=$name/" \
		"4e3cfe61fb93698926f96faa7f6cce77abcece4b' of https://github.com/analogdevicesinc/libiio," \
		"xz-compressed (CI's clone has ../shared/third_party/ beside it), or point" \
		"LIBIIO1_TARBALL at such an archive"
	exit 0
fi
hash=$(sha256sum "$tarball" | cut -c1-16)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/iiowire/$name-$hash
prefix=$cache/prefix
if [ "${1:-}" = --prefix ]; then
	echo "$prefix"
	exit 0
fi

mkdir -p "$cache"
# one build at a time (two ctest trees, or a bench beside a test, may ask at once)
exec 9>"$cache/lock"
flock 9
if [ -f "$cache/stamp" ]; then
	echo "libiio1: libiio 1.0 cached in $prefix"
	exit 0
fi
t0=$(date +%s)
rm -rf "$cache/src" "$cache/build" "$prefix"
mkdir -p "$cache/src"
tar -xJf "$tarball" -C "$cache/src"
srcdir=$cache/src/$name
log=$cache/build.log
if ! {
	nice -n 10 cmake -S "$srcdir" -B "$cache/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib \
		-DWITH_TESTS=ON -DTESTS_DEBUG=ON -DWITH_NETWORK_BACKEND=ON \
		-DWITH_LOCAL_BACKEND=ON -DWITH_IIOD=ON -DWITH_UTILS=ON -DWITH_EMU_BACKEND=ON \
		-DLIBIIO_COMPAT=OFF -DHAVE_DNS_SD=OFF -DWITH_MAN=OFF &&
	nice -n 10 cmake --build "$cache/build" -j "${LIBIIO1_JOBS:-$(nproc 2>/dev/null || echo 2)}" &&
	cmake --install "$cache/build"
} >"$log" 2>&1; then
	tail -n 30 "$log"
	echo "libiio1: FAIL: building libiio 1.0 failed (log: $log; Debian packages: tests/deps.sh)"
	exit 1
fi
mkdir -p "$prefix/libexec/api" "$prefix/python"
for t in "$cache/build/tests/api/"test_*; do
	[ -x "$t" ] && [ -f "$t" ] && cp "$t" "$prefix/libexec/api/"
done
cp -R "$srcdir/bindings/python/iio" "$prefix/python/"
rm -rf "$cache/build" "$cache/src"
touch "$cache/stamp"
echo "libiio1: libiio 1.0 built in $(($(date +%s) - t0)) s into $prefix"
