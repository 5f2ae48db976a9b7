// Command kas only anchors the kube-apiserver requirement in this wrapper
// module; setup.sh builds k8s.io/kubernetes/cmd/kube-apiserver from here.
package main

import _ "k8s.io/kubernetes/cmd/kube-apiserver/app"

func main() {}
