#!/usr/bin/env bash
# Build the sandbox image localhost/company-sandbox without any registry, under a tag of its own.
#
# Usage: examples/images/build-local.sh [IMAGE]        (default localhost/company-sandbox:latest)
#
# The image is tagged REPOSITORY:c-<12 hex digits of its content's sha256> and IMAGE (the alias a gateway uses
# by default) is pointed at it. The content is built reproducibly (sorted names, fixed times and owners), so
# building again on the same host gives the same tag and imports nothing; a changed build gets a new tag and
# only moves the alias. No image is removed or re-tagged under a gateway that names the content tag
# (GATEWAY_SANDBOX_IMAGE=localhost/company-sandbox:c-...): several gateways on one engine can build at will.
# The last line printed is the content tag.
#
# The image is a busybox root filesystem: /bin/busybox (from Debian's busybox-static) with
# a link for every applet (sh, sleep, timeout, mkdir, cat, readlink, tar...), /etc/passwd
# and /etc/group, an empty /workspace, /opt/company/bin for app commands and /tmp. It is
# imported with `podman import` (or `docker import` when podman is absent), so it needs no
# base image and no network. Tests that need python3 or curl inside a sandbox bind-mount the
# host's /usr, /lib and /lib64 read-only (DockerProvider(host_binds=[...])).
#
# The document tools (scripts/install-document-tools.sh: a venv on /usr/bin/python3 with openpyxl, python-docx
# and pypdf; DOCUMENT_TOOLS names another folder) are copied to /opt/tools when installed, its bin/ on PATH
# after the app commands, so `python3` there reads and writes office files once the host's /usr is bound in.
# Without them the image is built as before, with a warning (a different content tag).
#
# For an image with a real distribution inside, see base/Dockerfile (needs a registry).
set -euo pipefail

image="${1:-localhost/company-sandbox:latest}"
case "${image##*/}" in
  *:*) repo="${image%:*}" ;;
  *) repo="$image" image="$image:latest" ;;
esac
busybox="${BUSYBOX:-/bin/busybox}"
if ! "$busybox" --list >/dev/null 2>&1; then
  echo "no static busybox at $busybox; install the 'busybox-static' package" >&2
  exit 1
fi
if command -v podman >/dev/null 2>&1; then engine=podman; else engine=docker; fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
mkdir -p "$root"/{bin,etc,root,workspace,opt/company/bin,proc,sys,dev,usr,lib,lib64}
install -d -m 1777 "$root/tmp"
cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
  [ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
done
tools="${DOCUMENT_TOOLS:-$HOME/.cache/office-tools/python}"
if [ -x "$tools/bin/python3" ]; then
  mkdir -p "$root/opt/tools"
  cp -a "$tools/." "$root/opt/tools/"
  rm -f "$root"/opt/tools/.pins-*
else
  echo "build-local: no document tools at $tools (bash scripts/install-document-tools.sh); building without" >&2
fi
cat >"$root/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
PASSWD
cat >"$root/etc/group" <<'GROUP'
root:x:0:
nogroup:x:65534:
GROUP

# Reproducible: the same files give the same bytes, so the same content tag.
tar -C "$root" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf "$work/rootfs.tar" .
changes=(
  --change 'ENV PATH=/opt/company/bin:/opt/tools/bin:/usr/local/bin:/usr/bin:/bin'
  --change 'WORKDIR /workspace'
  --change 'CMD ["/bin/sleep", "2147483647"]'
)
digest="$( (sha256sum <"$work/rootfs.tar"; printf '%s\n' "${changes[@]}") | sha256sum | cut -c1-12)"
content="$repo:c-$digest"
if ! "$engine" image inspect "$content" >/dev/null 2>&1; then
  if [ "$engine" = podman ]; then import=(podman import --quiet); else import=(docker import); fi
  "${import[@]}" "${changes[@]}" "$work/rootfs.tar" "$content" >/dev/null
fi
if [ "$image" != "$content" ]; then
  "$engine" tag "$content" "$image"
fi
echo "$content"
