// Command bh-kube is bh's client of a Kubernetes cluster, for runner: k8s:
// bh starts it, asks over its stdin and reads the answers on its stdout
// (kubeapi's wire.go). It loads the kubeconfig as kubectl does (clientgo),
// and ends when its stdin does. Install it beside bh:
//
//	go build -o ~/.local/bin/ ./worker/kube/kubeapi/bh-kube
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/bh-tracker/bh/worker/kube/kubeapi"
	"github.com/bh-tracker/bh/worker/kube/kubeapi/clientgo"
)

func main() {
	api, ns, err := clientgo.Client()
	hello := kubeapi.Response{NS: ns}
	if err != nil {
		hello.Err = err.Error()
	}
	if json.NewEncoder(os.Stdout).Encode(hello) != nil || err != nil {
		os.Exit(1)
	}
	if err := kubeapi.Serve(context.Background(), api, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bh-kube:", err)
		os.Exit(1)
	}
}
