#!/usr/bin/env bash
# Build the sandbox image localhost/company-sandbox:latest without any registry.
#
# Usage: examples/images/build-local.sh [IMAGE]
#
# The image is a busybox root filesystem: /bin/busybox (from Debian's busybox-static) with
# a link for every applet (sh, sleep, timeout, mkdir, cat, readlink, tar...), /etc/passwd
# and /etc/group, an empty /workspace, /opt/company/bin for app commands and /tmp. It is
# imported with `podman import` (or `docker import` when podman is absent), so it needs no
# base image and no network. Tests that need python3 or curl inside a sandbox bind-mount the
# host's /usr, /lib and /lib64 read-only (DockerProvider(host_binds=[...])).
#
# For an image with a real distribution inside, see base/Dockerfile (needs a registry).
set -euo pipefail

image="${1:-localhost/company-sandbox:latest}"
busybox="${BUSYBOX:-/bin/busybox}"
if ! "$busybox" --list >/dev/null 2>&1; then
  echo "no static busybox at $busybox; install the 'busybox-static' package" >&2
  exit 1
fi
if command -v podman >/dev/null 2>&1; then engine=podman; else engine=docker; fi
previous="$("$engine" image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
mkdir -p "$root"/{bin,etc,root,workspace,opt/company/bin,proc,sys,dev,usr,lib,lib64}
install -d -m 1777 "$root/tmp"
cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
  [ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
done
cat >"$root/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
PASSWD
cat >"$root/etc/group" <<'GROUP'
root:x:0:
nogroup:x:65534:
GROUP

tar -C "$root" -cf "$work/rootfs.tar" .
if [ "$engine" = podman ]; then import=(podman import --quiet); else import=(docker import); fi
"${import[@]}" \
  --change 'ENV PATH=/opt/company/bin:/usr/local/bin:/usr/bin:/bin' \
  --change 'WORKDIR /workspace' \
  --change 'CMD ["/bin/sleep", "2147483647"]' \
  "$work/rootfs.tar" "$image" >/dev/null
# The image it replaces is left untagged: remove it unless a container still uses it.
current="$("$engine" image inspect --format '{{.Id}}' "$image")"
if [ -n "$previous" ] && [ "$previous" != "$current" ]; then
  "$engine" rmi "$previous" >/dev/null 2>&1 || true
fi
echo "$image"
