package kubetest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/yaml"
)

var crdsGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// installCRDs creates the agent-sandbox CRDs setup.sh copied from the
// module, keeping only v1beta1 (their storage version) and dropping the
// conversion webhook, which would need a service; then waits until the
// server serves them.
func (p *plane) installCRDs(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("kubetest: no CRDs in %s: run worker/kube/kubetest/setup.sh", dir)
	}
	var names []string
	for _, f := range files {
		crd, err := readCRD(f)
		if err != nil {
			return err
		}
		if _, err := p.dyn.Resource(crdsGVR).Create(p.ctx, crd, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("kubetest: create CRD %s: %w", crd.GetName(), err)
		}
		names = append(names, crd.GetName())
	}
	for _, n := range names {
		if err := poll("CRD "+n+" Established", func() bool { return p.established(n) }); err != nil {
			return err
		}
	}
	p.mapper.Reset()
	return nil
}

func readCRD(file string) (*unstructured.Unstructured, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	crd := &unstructured.Unstructured{}
	if err := yaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096).Decode(&crd.Object); err != nil {
		return nil, fmt.Errorf("kubetest: %s: %w", file, err)
	}
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	var kept []any
	for _, v := range versions {
		if m, ok := v.(map[string]any); ok && m["name"] == "v1beta1" {
			kept = append(kept, v)
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("kubetest: %s has no v1beta1", file)
	}
	unstructured.RemoveNestedField(crd.Object, "spec", "conversion")
	return crd, unstructured.SetNestedSlice(crd.Object, kept, "spec", "versions")
}

func (p *plane) established(name string) bool {
	crd, err := p.dyn.Resource(crdsGVR).Get(p.ctx, name, metav1.GetOptions{})
	if err != nil {
		return false
	}
	conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}
