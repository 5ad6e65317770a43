# libiio1_tree.sh - a fake sysfs tree that iiod 1.0 (from tests/libiio1.sh's
# cache) and iiowired --kernel can both serve, for test_libiio1.sh's iiod1
# target and bench/libiio1_compare.sh (sourced, not run; inside a private
# mount and network namespace, as root). tests/kernel_tree.sh's devices and
# triggers on a tmpfs /sys, and a MAX1363 with events/ and one scan element
# (iio:device4); /dev a tmpfs (kt_dev_begin) whose iio:device1 (the max1036:
# u8 samples, scan indices 0-3 for voltage0-3) is a FIFO a feeder fills with
# one record over and over, and whose iio:device4.events is the FIFO
# tests/preload/kshim.c hands out as the max1363's event fd (the server must
# be started with $l1_kshim preloaded; iiowired serves events of a device
# with events/ only). Not the ads1015 for the buffer: its scan indices (4-7)
# are not its channels' positions, and iiod 1.0 takes the one for the other
# (the facts file), streaming the wrong sample size.
# Needs $tmp (a directory of the caller's) and $build (for the shim).

. "${src:-$top}/tests/kernel_tree.sh"

l1_node=/dev/iio:device1
l1_evnode=/dev/iio:device4

# l1_tree_begin: the tree, /dev and the two FIFOs
l1_tree_begin() {
	ip link set lo up
	mount -t tmpfs libiio1 /sys
	kt_all
	kt_triggers
	kt_max1363 4
	# a buffer too: libiio 1.0's local backend makes event streams only while one is open
	kt_scan 4 in_voltage0 0 "be:u12/16>>0"
	kt_buffer 4
	kt_dev_begin "$tmp/dev"
	mkfifo "$l1_node" "$l1_evnode" "$l1_evnode.events"
	l1_feed=""
}

# l1_tree_end: what l1_tree_begin bound, undone (the servers stopped first)
l1_tree_end() {
	l1_feed_stop
	# not 2>/dev/null: that open of the bound /dev/null would keep /dev busy
	kt_dev_undo
}

# the shim a server is started with (LD_PRELOAD="$l1_kshim" SERVER ... &, not
# through a function: $! would be the subshell, and killing it leave the server)
l1_kshim=$build/tests/libiiowire_kshim.so

# l1_feed_start HEX: a feeder writing the record HEX (little-endian bytes as
# the scan has them) flat out into the node; its writes end when the last
# reader lets go of the FIFO (EPIPE), so each capture gets a feeder of its own
l1_feed_start() {
	[ -s "$tmp/chunk.$1" ] || "${py:-python3}" -c \
		'import sys; r = bytes.fromhex(sys.argv[1]); sys.stdout.buffer.write(r * (4194304 // len(r)))' \
		"$1" >"$tmp/chunk.$1"
	# one cat of the chunk named 4096 times (16 GiB): a shell loop would leave a cat
	# behind, holding the FIFO open, when killed
	# shellcheck disable=SC2046
	cat $(yes "$tmp/chunk.$1" | head -4096) >"$l1_node" 2>/dev/null &
	l1_feed=$!
}

l1_feed_stop() {
	[ -z "$l1_feed" ] || { kill "$l1_feed" 2>/dev/null; wait "$l1_feed" 2>/dev/null; }
	l1_feed=""
}

# l1_records N HEX: N copies of the record HEX, as a capture of them reads
l1_records() {
	"${py:-python3}" -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(sys.argv[2]) * int(sys.argv[1]))' "$1" "$2"
}

