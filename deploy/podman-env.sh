# Podman's settings for these machines (../shared/DEPLOY-NOTES.md), sourced by the deploy
# scripts: runc (crun 1.8 refuses hybrid cgroups), cgroupfs and file events (no systemd),
# ulimits the kernel grants, and storage under a scratch folder of the project's.
podman_root=${VIDPIPE_PODMAN_ROOT:-/var/tmp/vidpipe-podman}
mkdir -p "$podman_root"
cat > "$podman_root/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=10000:10000", "nproc=10000:10000"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
cat > "$podman_root/storage.conf" <<CONF
[storage]
driver = "overlay"
graphroot = "$podman_root/storage"
runroot = "$podman_root/run"
CONF
export CONTAINERS_CONF=$podman_root/containers.conf CONTAINERS_STORAGE_CONF=$podman_root/storage.conf
