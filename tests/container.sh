#!/bin/sh
# container.sh - build the iiowire image with podman, run it, and check what a
# deployment needs: the healthcheck, values over the published port, a fast
# clean stop on SIGTERM, the Debian packages installed in a fresh container
# (package.sh), the host's kernel IIO devices served from a read-only /sys
# (a fake tree), and the compose file (daemon, hwmon bridge, node exporter)
# serving the bridge's channels as Prometheus metrics.
# Skips (exit 0 with a message) only where podman cannot run containers.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
fail() { echo "container: FAIL: $*" >&2; cleanup; exit 1; }
skip() { echo "container: SKIPPED: $*" >&2; exit 0; }
# shellcheck disable=SC1091
. "$top/tests/shtest.sh"
# free ports, not fixed ones: a run killed before its cleanup leaves its
# container publishing its port (a fixed port made every later run fail)
port=${IIOWIRE_CONTAINER_PORT:-$(shtest_free_port 1)}
eport=${IIOWIRE_CONTAINER_EXPORTER_PORT:-$(shtest_free_port 2)}
kport=${IIOWIRE_CONTAINER_KERNEL_PORT:-$(shtest_free_port 3)}
name=iiowire-ctest-$$
project=iiowirectest$$
cleanup() {
	podman rm -f -t 1 "$name" >/dev/null 2>&1
	if [ -n "${compose_up:-}" ]; then
		IIOWIRE_PORT=$port IIOWIRE_EXPORTER_PORT=$eport \
			podman-compose -p "$project" -f docker/compose.yaml down -v >/dev/null 2>&1
		compose_up=""
	fi
	rm -rf "${kt:-}" "/tmp/$name.build" "/tmp/$name.compose"
}
# whatever way it ends (a failed check, a skip, SIGINT, SIGTERM)
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# shellcheck disable=SC1091
. "$top/tests/container-env.sh"
command -v podman >/dev/null || skip "podman is not installed"
podman info >/dev/null 2>&1 || skip "podman cannot run here: $(podman info 2>&1 | tail -1)"
podman image exists debian:bookworm || skip "no debian:bookworm base image"
# containers of runs that were killed (their shell is gone) go first
for c in $(podman ps -a --format '{{.Names}}' | grep '^iiowire-ctest-[0-9]*$'); do
	kill -0 "${c#iiowire-ctest-}" 2>/dev/null || podman rm -f -t 1 "$c" >/dev/null 2>&1
done

echo "container: building the image as README says (build stage runs the unit tests)"
podman build -t iiowire -f docker/Dockerfile . >/tmp/$name.build 2>&1 ||
	{ tail -30 /tmp/$name.build; fail "image build"; }
entry=$(podman image inspect iiowire:latest --format '{{.Config.Entrypoint}}')
case "$entry" in *iiowired*) ;; *) fail "the default image runs '$entry', not iiowired";; esac
size=$(podman image inspect iiowire:latest --format '{{.Size}}')
echo "container: image size $((size / 1000000)) MB"
hc=$(podman image inspect iiowire:latest --format '{{.Config.Healthcheck}}' 2>/dev/null)
case "$hc" in *iiowire*) ;; *) fail "image has no HEALTHCHECK ($hc)";; esac
user=$(podman image inspect iiowire:latest --format '{{.Config.User}}')
[ "$user" = iiowire ] || fail "image runs as '$user', not iiowire"

podman run -d --init --name "$name" -p 127.0.0.1:$port:30432 iiowire:latest >/dev/null ||
	fail "podman run"
ok=""
for i in $(seq 1 50); do
	if podman healthcheck run "$name" >/dev/null 2>&1; then ok=1; break; fi
	sleep 0.2
done
[ -n "$ok" ] || { podman logs "$name"; fail "healthcheck never passed"; }
echo "container: healthcheck passes"
reply=$(printf 'read max1238 in_voltage_scale\nread dummy0 in_voltage0_raw\nquit\n' |
	nc -q 2 127.0.0.1 "$port")
expect=$(printf 'OK 1.000000000\nOK 73\nOK')
[ "$reply" = "$expect" ] || fail "values over the published port: got '$reply'"
echo "container: values read over 127.0.0.1:$port"
start=$(date +%s%N)
podman stop -t 10 "$name" >/dev/null || fail "podman stop"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
code=$(podman inspect "$name" --format '{{.State.ExitCode}}')
[ "$code" = 0 ] || { podman logs "$name"; fail "exit status $code after SIGTERM"; }
[ "$ms" -lt 5000 ] || fail "stop took $ms ms"
echo "container: SIGTERM stop in $ms ms, exit status 0"
podman rm -f "$name" >/dev/null 2>&1

# The host's kernel IIO devices, as README's "Run in a container" says, with a fake
# tree (tests/kernel_tree.sh) standing in for the host's /sys: read-only, no
# --privileged, the image's own user.
kt=$(mktemp -d /tmp/iiowire-ctest-sys-XXXXXX)
# shellcheck disable=SC1091
KT_SYS=$kt . "$top/tests/kernel_tree.sh"
kt_ads1015
chmod -R a+rX "$kt"
podman run -d --init --name "$name" -p 127.0.0.1:$kport:30432 -v "$kt:/host/sys:ro" \
	--entrypoint iiowired iiowire:latest --listen 0.0.0.0:30432 --kernel \
	--sysfs-root /host/sys >/dev/null || fail "podman run --kernel"
reply=""
for i in $(seq 1 50); do
	reply=$(printf 'read adc0 in_voltage1_raw\nwrite ads1015 in_voltage0_raw 1\nquit\n' |
		nc -q 2 127.0.0.1 "$kport" 2>/dev/null) && [ -n "$reply" ] && break
	sleep 0.2
done
podman rm -f -t 1 "$name" >/dev/null 2>&1
rm -rf "$kt"
kt=""
case "$reply" in
"OK 664"*"ERR EROFS"*) echo "container: a kernel device read through -v SYS:/host/sys:ro (writes: EROFS)";;
*) fail "kernel devices in the container: got '$reply'";;
esac

"$top/tests/package.sh" || fail "the Debian packages (tests/package.sh)"

command -v podman-compose >/dev/null || skip "podman-compose is not installed (the image checks passed)"
echo "container: compose up"
compose_up=1
IIOWIRE_PORT=$port IIOWIRE_EXPORTER_PORT=$eport \
	podman-compose -p "$project" -f docker/compose.yaml up -d >/tmp/$name.compose 2>&1 ||
	{ tail -30 /tmp/$name.compose; fail "compose up"; }
metrics=""
for i in $(seq 1 100); do
	metrics=$(curl -s "http://127.0.0.1:$eport/metrics" 2>/dev/null | grep '^node_hwmon_in_volts' || true)
	[ -n "$metrics" ] && break
	sleep 0.3
done
[ -n "$metrics" ] || { tail -30 /tmp/$name.compose; podman-compose -p "$project" -f docker/compose.yaml logs 2>&1 | tail -30; fail "no node_hwmon_in_volts from the exporter"; }
echo "$metrics" | head -3
echo "$metrics" | grep -q 'sensor="in1"' || fail "in1 missing from the exporter"
cleanup
echo "container: all checks passed"
