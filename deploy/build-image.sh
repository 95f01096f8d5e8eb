#!/usr/bin/env bash
# Builds the OCI image localhost/vidpipe:<version> with no registry (docs/DEPLOY.md):
#   1. a Debian 12 root filesystem made by mmdebstrap from the mirror apt already uses, holding
#      the Debian packages vidpipe's binary links against (read off the binary) and curl (the
#      probes of `podman kube play` run it), imported as localhost/vidpipe-base:12 and saved to
#      $VIDPIPE_IMAGE_CACHE (default build/image-cache) so later builds and CI steps load it;
#   2. deploy/Containerfile on top: vidpipe as installed (binary, configs, model, charts
#      script), run as an unprivileged user.
# Run as root on a machine with podman, runc and mmdebstrap (scripts/setup.sh installs them).
# WITH_CHARTS=1 also puts python3-matplotlib in the base, for `vidpipe bench`'s charts.
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/podman-env.sh
build=${VIDPIPE_BUILD:-build}
cache=${VIDPIPE_IMAGE_CACHE:-$PWD/build/image-cache}
base=localhost/vidpipe-base:12
[ -x "$build/app/vidpipe" ] || { cmake --preset default >/dev/null && cmake --build --preset default -j"$(nproc)" --target vidpipe; }
version=$("$build/app/vidpipe" --version | awk 'NR == 1 {print $2}')

# The Debian package of each library the binary needs (the C library's come with any base).
runtime_packages() {
  objdump -p "$build/app/vidpipe" | awk '/NEEDED/ {print $2}' | while read -r lib; do
    path=$(ldconfig -p | awk -v lib="$lib" '$1 == lib && /x86-64/ {print $NF; exit}')
    # (the C library's paths are registered under /lib, which merged /usr hides: left out below)
    [ -n "$path" ] && { dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -1 | cut -d: -f1 || true; }
  done | sort -u | grep -vx -e libc6 -e libgcc-s1
}

make_base() {
  local packages
  packages=$(runtime_packages | paste -sd, -),curl,ca-certificates
  if [ "${WITH_CHARTS:-0}" = 1 ]; then packages+=,python3-matplotlib; fi
  echo "base image: $packages"
  mkdir -p "$cache"
  # --variant=apt: essential packages and apt only; man pages and translations left out.
  mmdebstrap --variant=apt --mode=root --quiet \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr --hook-dir=/usr/share/mmdebstrap/hooks/eatmydata \
    --include="$packages" --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    bookworm - /etc/apt/sources.list.d/debian.sources | podman import --change 'CMD ["/bin/bash"]' - "$base"
  podman save --format oci-archive -o "$cache/base.tar.part" "$base"
  mv "$cache/base.tar.part" "$cache/base.tar"
}

if ! podman image exists "$base"; then
  if [ -f "$cache/base.tar" ]; then podman load -q -i "$cache/base.tar" | tail -1
  else make_base; fi
  # A loaded archive carries its own name; make sure it is the one the Containerfile uses.
  podman image exists "$base" || podman tag "$(podman images -q | head -1)" "$base"
fi

context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
DESTDIR="$context/root" cmake --install "$build" --prefix /usr/local >/dev/null
install -D -m 0644 deploy/k8s/vidpipe.yaml "$context/vidpipe.k8s.yaml"  # for reference inside the image
mkdir -p "$context/root/etc/vidpipe" "$context/state"
# Not empty: a volume mounted there is filled from the image, owner and all (the
# unprivileged user's), where podman would otherwise leave it root's.
echo "vidpipe's outputs and control.state_file go here (docs/DEPLOY.md)" > "$context/state/README"
install -m 0644 config/serve.yaml "$context/root/etc/vidpipe/vidpipe.yaml"
podman build --quiet -f deploy/Containerfile -t "localhost/vidpipe:$version" -t localhost/vidpipe:latest "$context" >/dev/null
echo "built localhost/vidpipe:$version ($(podman image inspect localhost/vidpipe:latest --format '{{.Size}}' | numfmt --to=iec))"
