#!/usr/bin/env bash
# The manifests a user applies to a cluster (deploy/k8s/vidpipe.yaml), played by podman on the
# CPU path: the pod starts, /readyz turns true, /metrics is scraped, an input is added and
# removed through the control endpoint with the Secret's token (and refused without it),
# the container killed mid-run is restarted and resumes its input from the state file, the
# liveness probe runs, and `podman kube down` leaves no pod, container or volume behind.
# Needs root, podman, runc and mmdebstrap (scripts/setup.sh); builds the image if needed.
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/podman-env.sh
manifest=deploy/k8s/vidpipe.yaml
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
# curl's status code and body, whatever the status.
call() { curl -s -o /tmp/kube-play-body -w '%{http_code}' "$@" || echo 000; }
wait_for() {  # SECONDS COMMAND...: true once COMMAND succeeds
  local deadline=$((SECONDS + $1)); shift
  until "$@" >/dev/null 2>&1; do [ $SECONDS -lt $deadline ] || return 1; sleep 0.5; done
}
down() {
  podman kube down "$manifest" >/dev/null 2>&1 || true
  # kube down leaves the ConfigMap's and the Secret's volumes, and the Secret (DEPLOY-NOTES.md).
  podman volume rm -f vidpipe-config vidpipe-control-token state >/dev/null 2>&1 || true
  podman secret rm vidpipe-control-token >/dev/null 2>&1 || true
}

bash deploy/build-image.sh
down
trap down EXIT
# Podman's bridge network, as a cluster's pod network: the pod has an address of its own,
# and the probes (curl inside the image) and this script reach it there.
podman kube play --replace "$manifest" >/dev/null
container=$(podman ps --format '{{.Names}}' | grep -- '-vidpipe$' | head -1)
address=$(podman inspect "$container" --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}')
port=$(awk -F: '/listen:/ {print $NF; exit}' "$manifest" | awk '{print $1}')
base=http://$address:$port
echo "playing $manifest: container $container at $base"
# The token as the pod sees it in the Secret's mount (podman 4.3 writes a Secret's `data`
# still in base64, where Kubernetes decodes it: the file is what counts either way).
token=$(podman exec "$container" cat /etc/vidpipe-token/token)

wait_for 60 curl -sf $base/healthz || fail "/healthz did not answer within 60 s: $(podman logs "$container" 2>&1 | tail -5)"
[ "$(call $base/readyz)" = 200 ] || fail "/readyz with no inputs: $(cat /tmp/kube-play-body)"
curl -sf $base/metrics | grep -q '^vidpipe_service_inputs{state="running"} 0' || fail "/metrics is not scraped"

clip=/usr/local/share/vidpipe/assets/sample-4k.mp4
[ "$(call -X POST -d "{\"uri\": \"$clip\", \"id\": \"cam-1\"}" $base/inputs)" = 401 ] || fail "POST without the token was not refused"
status=$(call -X POST -H "Authorization: Bearer $token" -d "{\"uri\": \"$clip\", \"id\": \"cam-1\"}" $base/inputs)
# 202: still opening after 5 s (a 4K clip through the CPU detector on a loaded machine).
[ "$status" = 201 ] || [ "$status" = 202 ] || fail "POST /inputs: $status $(cat /tmp/kube-play-body)"
wait_for 60 curl -sf $base/readyz || fail "/readyz did not turn true with an input: $(curl -s $base/readyz)"
# Its series are there once its pipeline shows its first report, a moment after /readyz can
# say its first frame is through.
has_series() { curl -s $base/metrics | grep -q 'vidpipe_frames_total{pipeline="cam-1"}'; }
wait_for 10 has_series || fail "/metrics lacks the added input: $(curl -s $base/metrics | grep -c cam-1) cam-1 lines; /inputs: $(curl -s $base/inputs | head -c 600)"

# A container whose process dies mid-run (an OOM kill, a crash) is restarted (restartPolicy
# Always) and resumes cam-1 from the state file. Killed from the host: podman does not
# restart a container it was told to kill, as the kubelet would not.
kill -9 "$(podman inspect "$container" --format '{{.State.Pid}}')"
resumed() { curl -s $base/inputs | grep -q '"id": "cam-1"' && curl -s $base/inputs | grep -q '"state": "running"'; }
wait_for 60 resumed || fail "after SIGKILL the pod did not come back with cam-1: $(podman ps -a --format '{{.Names}} {{.Status}}')"

health=$(podman healthcheck run "$container" 2>&1) || fail "the liveness probe (podman healthcheck run) failed: $health"
status=$(call -X DELETE -H "Authorization: Bearer $token" $base/inputs/cam-1)
[ "$status" = 200 ] && grep -q '"state": "stopped"' /tmp/kube-play-body || fail "DELETE /inputs/cam-1: $status $(cat /tmp/kube-play-body)"

# SIGTERM on kube down: the service ends cleanly, and nothing is left behind.
down
trap - EXIT
left=$(podman ps -a --format '{{.Names}}' | grep -c vidpipe || true)
[ "$left" = 0 ] || fail "$left containers left after kube down"
[ -z "$(podman pod ps -q)" ] || fail "a pod is left after kube down"
[ -z "$(podman volume ls -q)" ] || fail "volumes left: $(podman volume ls -q)"
[ -z "$(podman secret ls --format '{{.Name}}')" ] || fail "secrets left: $(podman secret ls)"
[ $failures = 0 ] && echo "kube play: all passed" || { echo "kube play: $failures failure(s)"; exit 1; }
