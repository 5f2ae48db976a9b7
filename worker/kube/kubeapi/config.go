package kubeapi

import (
	"fmt"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
)

// Client is the cluster's API reached as kubectl reaches it (client-go's
// clientcmd): every KUBECONFIG file merged (default ~/.kube/config), its
// current context, whose user may log in through an exec plugin, its
// cluster's proxy-url and tls-server-name; in a pod without a kubeconfig,
// the pod's service account. ns is the namespace the context names (in a
// pod: the pod's own); "" when it names none.
func Client() (c API, ns string, err error) {
	return load(clientcmd.NewDefaultClientConfigLoadingRules())
}

func load(rules *clientcmd.ClientConfigLoadingRules) (API, string, error) {
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{})
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, "", fmt.Errorf("kubernetes: %w", err)
	}
	ns, err := namespace(cc)
	if err != nil {
		return nil, "", fmt.Errorf("kubernetes: %w", err)
	}
	// A bound on each request: a hung connection must not stall the runner's polling.
	cfg.Timeout = time.Minute
	d, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, "", fmt.Errorf("kubernetes: %w", err)
	}
	return Dynamic(d), ns, nil
}

// namespace is the current context's own namespace; without a context
// (in a pod), the pod's.
func namespace(cc clientcmd.ClientConfig) (string, error) {
	raw, err := cc.RawConfig()
	if err != nil {
		return "", err
	}
	if c := raw.Contexts[raw.CurrentContext]; c != nil {
		return c.Namespace, nil
	}
	ns, _, err := cc.Namespace()
	return ns, err
}
