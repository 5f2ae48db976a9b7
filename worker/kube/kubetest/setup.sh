#!/usr/bin/env bash
# Builds what the TestK8s* tests run against (kubetest.Start): kube-apiserver
# and the agent-sandbox controller, from the Go module proxy through the
# wrapper modules kas/ and asb/, into <repo>/.cache/k8s/bin (git-ignored).
# Idempotent: a binary is rebuilt only when missing or when its wrapper's
# go.mod/go.sum (the pinned versions) changed. etcd comes from Debian
# (etcd-server), installed here when missing and run as root. The
# agent-sandbox CRDs are copied from its module into the same folder.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${BH_K8S_BIN:-$here/../../../.cache/k8s/bin}"
mkdir -p "$bin"
if ! command -v etcd >/dev/null && [ "$(id -u)" = 0 ]; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq etcd-server) >/dev/null
fi
command -v etcd >/dev/null || { echo "setup.sh: etcd missing: apt-get install etcd-server" >&2; exit 1; }
# build NAME MODULE-DIR PACKAGE: the stamp records the pin the binary was built from.
build() {
  local pin
  pin="$(cat "$here/$2/go.mod" "$here/$2/go.sum" | sha256sum | cut -d' ' -f1)"
  if [ -x "$bin/$1" ] && [ "$(cat "$bin/$1.pin" 2>/dev/null)" = "$pin" ]; then return; fi
  echo "setup.sh: building $1 (minutes on a fresh machine)" >&2
  (cd "$here/$2" && go build -trimpath -buildvcs=false -o "$bin/$1.new" "$3")
  mv "$bin/$1.new" "$bin/$1"
  echo "$pin" >"$bin/$1.pin"
}
build kube-apiserver kas k8s.io/kubernetes/cmd/kube-apiserver
build agent-sandbox-controller asb sigs.k8s.io/agent-sandbox/cmd/agent-sandbox-controller
crds="$(cd "$here/asb" && go list -m -f '{{.Dir}}' sigs.k8s.io/agent-sandbox)/k8s/crds"
mkdir -p "$bin/crds"
install -m 644 "$crds"/*.yaml "$bin/crds/"
