#!/usr/bin/env python3
"""deploy/k8s: what `kubectl apply` and `podman kube play` are given.

- the Deployment (played in CI) and the fleet's StatefulSet run the same pod: image,
  probes, ports, resources, mounts, annotations; the StatefulSet only adds
  control.shard=hostname/N with N its replicas, and a volume of its own for the state;
- the probes ask /healthz (liveness) and /readyz (readiness) on the port metrics.listen
  binds, and Prometheus is told that port and /metrics;
- the ConfigMap's config is one vidpipe serve accepts (every key known), serving on all
  addresses with the token and state file where the pod mounts them.

Usage: manifests_test.py VIDPIPE_BINARY SOURCE_DIR"""
import os
import re
import subprocess
import sys
import tempfile

import yaml

vidpipe, source = sys.argv[1], sys.argv[2]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL", what)


def documents(path):
    with open(os.path.join(source, path)) as f:
        return {doc["kind"]: doc for doc in yaml.safe_load_all(f) if doc}


played = documents("deploy/k8s/vidpipe.yaml")
fleet = documents("deploy/k8s/fleet/statefulset.yaml")
deployment, statefulset = played["Deployment"], fleet["StatefulSet"]
pod, fleet_pod = deployment["spec"]["template"], statefulset["spec"]["template"]
container, fleet_container = pod["spec"]["containers"][0], fleet_pod["spec"]["containers"][0]

for key in ("image", "ports", "livenessProbe", "readinessProbe", "resources", "volumeMounts"):
    check(container[key] == fleet_container[key], f"the fleet's container differs in {key}")
check(pod["metadata"] == fleet_pod["metadata"], "the fleet's pod labels or annotations differ")
replicas = statefulset["spec"]["replicas"]
check(fleet_container["args"] == container["args"] + ["--set", f"control.shard=hostname/{replicas}"],
      f"the fleet's args are the Deployment's plus control.shard=hostname/{replicas}: {fleet_container['args']}")
check([v for v in pod["spec"]["volumes"] if v["name"] != "state"] == fleet_pod["spec"]["volumes"],
      "the fleet's volumes are the Deployment's but the state")
check([c["metadata"]["name"] for c in statefulset["spec"]["volumeClaimTemplates"]] == ["state"],
      "each fleet pod claims a volume for its state")

config_text = played["ConfigMap"]["data"]["vidpipe.yaml"]
config = yaml.safe_load(config_text)
port = int(config["metrics"]["listen"].rsplit(":", 1)[1])
check(config["metrics"]["listen"].startswith("0.0.0.0:"), "the pod serves on all its addresses (the kubelet probes them)")
check(container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": port}, "liveness asks /healthz")
check(container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": port}, "readiness asks /readyz")
annotations = pod["metadata"]["annotations"]
check(annotations.get("prometheus.io/port") == str(port) and annotations.get("prometheus.io/path") == "/metrics",
      "Prometheus is told the port and /metrics")
check(container["resources"]["limits"].get("nvidia.com/gpu") == 1, "one GPU a pod")
mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
check(config["control"]["token_file"].startswith(mounts["token"] + "/"), "the token file is in the Secret's mount")
check(config["control"]["state_file"].startswith(mounts["state"] + "/"), "the state file is in the state volume")
check(list(played["Secret"]["data"]) == [os.path.basename(config["control"]["token_file"])],
      "the Secret holds the token file the config names")

# vidpipe itself loads the ConfigMap's config (a misspelt key is refused), here with the
# token and state where this machine has them.
work = tempfile.mkdtemp(prefix="vidpipe-manifests-")
config_path = os.path.join(work, "vidpipe.yaml")
with open(config_path, "w") as f:
    f.write(config_text)
with open(os.path.join(work, "token"), "w") as f:
    f.write("t\n")
serve = subprocess.Popen([vidpipe, "serve", "-c", config_path, "--set", "metrics.listen=127.0.0.1:0",
                          "--set", f"control.token_file={work}/token", "--set", f"control.state_file={work}/state.json"],
                         cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
served = False
for line in serve.stderr:
    if re.search(r"serving: POST /inputs", line):
        served = True
        break
serve.terminate()
rest = serve.communicate(timeout=30)[1]
check(served and serve.returncode == 0, f"vidpipe serve takes the ConfigMap's config (exit {serve.returncode}): {rest}")
print(f"{len(failures)} failure(s)" if failures else "all passed")
sys.exit(1 if failures else 0)
