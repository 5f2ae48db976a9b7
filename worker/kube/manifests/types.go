package manifests

// The few Kubernetes shapes bh prints, with the fields it sets: small
// structs instead of k8s.io/api, which would triple bh's binary.

type meta struct {
	Name        string            `yaml:"name,omitempty"`
	Namespace   string            `yaml:"namespace,omitempty"`
	Labels      map[string]string `yaml:"labels,omitempty"`
	Annotations map[string]string `yaml:"annotations,omitempty"`
}

// object is any top-level object: its kind and name, then its spec.
type object struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   meta   `yaml:"metadata"`
	Spec       any    `yaml:"spec,omitempty"`
	// RBAC's objects have no spec.
	Rules    []rule    `yaml:"rules,omitempty"`
	RoleRef  *roleRef  `yaml:"roleRef,omitempty"`
	Subjects []subject `yaml:"subjects,omitempty"`
	// AutomountServiceAccountToken is the ServiceAccount's: a token only
	// where the worker talks to the API (--mode pods).
	AutomountServiceAccountToken *bool `yaml:"automountServiceAccountToken,omitempty"`
}

type rule struct {
	APIGroups []string `yaml:"apiGroups"`
	Resources []string `yaml:"resources"`
	Verbs     []string `yaml:"verbs"`
}

type roleRef struct {
	APIGroup string `yaml:"apiGroup"`
	Kind     string `yaml:"kind"`
	Name     string `yaml:"name"`
}

type subject struct {
	Kind      string `yaml:"kind"`
	Name      string `yaml:"name"`
	Namespace string `yaml:"namespace"`
}

type statefulSetSpec struct {
	ServiceName          string      `yaml:"serviceName"`
	Replicas             int         `yaml:"replicas"`
	PodManagementPolicy  string      `yaml:"podManagementPolicy"`
	Selector             selector    `yaml:"selector"`
	Template             podTemplate `yaml:"template"`
	VolumeClaimTemplates []claimSpec `yaml:"volumeClaimTemplates"`
}

type selector struct {
	MatchLabels map[string]string `yaml:"matchLabels"`
}

type podTemplate struct {
	Metadata meta    `yaml:"metadata"`
	Spec     podSpec `yaml:"spec"`
}

type podSpec struct {
	ServiceAccountName            string      `yaml:"serviceAccountName,omitempty"`
	AutomountServiceAccountToken  *bool       `yaml:"automountServiceAccountToken,omitempty"`
	RestartPolicy                 string      `yaml:"restartPolicy,omitempty"`
	TerminationGracePeriodSeconds int         `yaml:"terminationGracePeriodSeconds,omitempty"`
	SecurityContext               podSecurity `yaml:"securityContext"`
	Containers                    []container `yaml:"containers"`
	Volumes                       []volume    `yaml:"volumes,omitempty"`
}

type podSecurity struct {
	RunAsNonRoot   bool              `yaml:"runAsNonRoot"`
	RunAsUser      int               `yaml:"runAsUser"`
	RunAsGroup     int               `yaml:"runAsGroup"`
	FSGroup        int               `yaml:"fsGroup"`
	SeccompProfile map[string]string `yaml:"seccompProfile"`
}

type container struct {
	Name            string            `yaml:"name"`
	Image           string            `yaml:"image"`
	Command         []string          `yaml:"command,omitempty"`
	Args            []string          `yaml:"args,omitempty"`
	WorkingDir      string            `yaml:"workingDir,omitempty"`
	Env             []env             `yaml:"env"`
	EnvFrom         []envFrom         `yaml:"envFrom"`
	Resources       resources         `yaml:"resources"`
	VolumeMounts    []mount           `yaml:"volumeMounts"`
	SecurityContext containerSecurity `yaml:"securityContext"`
	// TerminationMessagePolicy FallbackToLogsOnError: the end of the log
	// of a container that failed is its status' message.
	TerminationMessagePolicy string `yaml:"terminationMessagePolicy,omitempty"`
}

type env struct {
	Name      string     `yaml:"name"`
	Value     string     `yaml:"value,omitempty"`
	ValueFrom *valueFrom `yaml:"valueFrom,omitempty"`
}

type valueFrom struct {
	FieldRef fieldRef `yaml:"fieldRef"`
}

type fieldRef struct {
	FieldPath string `yaml:"fieldPath"`
}

type envFrom struct {
	SecretRef secretRef `yaml:"secretRef"`
}

type secretRef struct {
	Name     string `yaml:"name"`
	Optional bool   `yaml:"optional"`
}

type resources struct {
	Requests map[string]string `yaml:"requests"`
}

type mount struct {
	Name      string `yaml:"name"`
	MountPath string `yaml:"mountPath"`
	ReadOnly  bool   `yaml:"readOnly,omitempty"`
}

type containerSecurity struct {
	AllowPrivilegeEscalation bool                `yaml:"allowPrivilegeEscalation"`
	Capabilities             map[string][]string `yaml:"capabilities"`
}

type volume struct {
	Name        string          `yaml:"name"`
	Secret      *secretVolume   `yaml:"secret,omitempty"`
	DownwardAPI *downwardVolume `yaml:"downwardAPI,omitempty"`
	EmptyDir    *struct{}       `yaml:"emptyDir,omitempty"`
}

type secretVolume struct {
	SecretName  string `yaml:"secretName"`
	DefaultMode int    `yaml:"defaultMode"`
	Optional    bool   `yaml:"optional,omitempty"`
}

type downwardVolume struct {
	Items []downwardItem `yaml:"items"`
}

type downwardItem struct {
	Path     string   `yaml:"path"`
	FieldRef fieldRef `yaml:"fieldRef"`
}

type claimSpec struct {
	Metadata meta `yaml:"metadata"`
	Spec     struct {
		AccessModes []string  `yaml:"accessModes"`
		Resources   resources `yaml:"resources"`
	} `yaml:"spec"`
}

// The agent-sandbox objects (extensions.agents.x-k8s.io/v1beta1).
type sandboxTemplateSpec struct {
	PodTemplate podTemplate `yaml:"podTemplate"`
}

type warmPoolSpec struct {
	Replicas           int               `yaml:"replicas"`
	SandboxTemplateRef map[string]string `yaml:"sandboxTemplateRef"`
}
