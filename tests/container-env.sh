#!/bin/sh
# container-env.sh - sourced by tests/container.sh: podman on a machine with no
# Docker engine and no registry. Installs podman, runc, debootstrap and
# podman-compose if missing, keeps container state under $CONTAINER_STATE,
# builds in Docker's image format (OCI would drop HEALTHCHECK), and makes a
# local Debian bookworm base image with debootstrap from the machine's own
# apt mirror, tagged debian:bookworm and debian:bookworm-slim.
CONTAINER_STATE=${CONTAINER_STATE:-/tmp/container-state}
mkdir -p "$CONTAINER_STATE"
cat >"$CONTAINER_STATE/storage.conf" <<CONF
[storage]
driver = "overlay"
graphroot = "$CONTAINER_STATE/root"
runroot = "$CONTAINER_STATE/run"
CONF
# rlimits cannot be raised past the hard limits here; crun dislikes hybrid cgroups
cat >"$CONTAINER_STATE/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
CONF
export CONTAINERS_STORAGE_CONF="$CONTAINER_STATE/storage.conf"
export CONTAINERS_CONF="$CONTAINER_STATE/containers.conf"
export BUILDAH_FORMAT=docker

iiowire_container_setup() {
	export DEBIAN_FRONTEND=noninteractive
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	for p in podman buildah runc debootstrap podman-compose curl; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" && continue
		timeout 300 $sudo apt-get update -q >/dev/null 2>&1
		timeout 900 $sudo apt-get install -y -q podman buildah runc debootstrap podman-compose \
			curl >/dev/null 2>&1 || return 1
		break
	done
	podman image exists localhost/debian:bookworm && return 0
	mirror=$(grep -hoE '^(URIs:|deb) +[^ ]+' /etc/apt/sources.list.d/*.sources \
		/etc/apt/sources.list 2>/dev/null | awk '{print $2}' | grep -v security | head -n1)
	[ -n "$mirror" ] || return 1
	rootfs="$CONTAINER_STATE/rootfs"
	if [ ! -x "$rootfs/bin/bash" ]; then
		rm -rf "$rootfs"
		timeout 900 $sudo debootstrap --variant=minbase bookworm "$rootfs" "$mirror" \
			>/dev/null 2>&1 || return 1
		rm -f "$rootfs"/var/cache/apt/archives/*.deb
		rm -rf "$rootfs"/var/lib/apt/lists/*
	fi
	tar -C "$rootfs" -c . | timeout 300 podman import -q -c 'CMD ["/bin/bash"]' - \
		localhost/debian:bookworm >/dev/null || return 1
	podman tag localhost/debian:bookworm docker.io/library/debian:bookworm \
		docker.io/library/debian:bookworm-slim
}
iiowire_container_setup || echo "container-env: setup failed" >&2
