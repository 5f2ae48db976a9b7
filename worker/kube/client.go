package kube

import (
	"errors"
	"fmt"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Client is the cluster's API: in a pod, through its service account;
// elsewhere as KUBECONFIG (default ~/.kube/config) says.
func Client() (dynamic.Interface, error) {
	cfg, err := rest.InClusterConfig()
	if errors.Is(err, rest.ErrNotInCluster) {
		rules := clientcmd.NewDefaultClientConfigLoadingRules()
		cfg, err = clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, nil).ClientConfig()
	}
	if err != nil {
		return nil, fmt.Errorf("kubernetes: %w", err)
	}
	return dynamic.NewForConfig(cfg)
}
