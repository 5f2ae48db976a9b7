package manifests

import "fmt"

// Where things are in bh's pods. The names are shared with bh run-task
// and the k8s runner: the task pod reads its task from the annotations
// file, the worker's hostname is its pod's name (a lease that outlives a
// restart).
const (
	home       = "/var/lib/bh" // the volume and HOME: the clone, bh's state, the agents' config and caches
	podinfoDir = "/etc/bh/podinfo"
	gitDir     = "/etc/bh/git"
	outDir     = "/var/lib/bh-out" // a task pod's result, from its agent's container to its helper
	uid        = 10001             // the image's user bh
)

// gracePeriod is how long a worker pod has after SIGTERM to stop its
// agents, park their work and push it, its sessions and its released
// claims to the remote: under a second in cmd's TestWorkerPodSIGTERM*
// (a local remote); the rest is a slow remote's margin.
const gracePeriod = 120

// workerScript clones the remote on the pod's first start and syncs with
// it on the next ones (a restarted pod pushes what it had not, and takes
// what others pushed, before its first claim), then runs the worker there,
// unchanged. A remote out of reach is the worker's to report and retry.
const workerScript = `set -eu
cd %[1]s
if [ ! -d repo/.git ]; then
  rm -rf repo.new
  git clone --origin %[2]s "$BH_REMOTE" repo.new
  mv repo.new repo
fi
cd repo
git remote set-url %[2]s "$BH_REMOTE"
bh sync || echo "bh: the worker starts without a sync"
exec bh worker
`

func workerSet(o Options) statefulSetSpec {
	labels := map[string]string{"app.kubernetes.io/name": worker, "app.kubernetes.io/part-of": "bh"}
	c := base(o, "worker", "data", "git")
	c.Command = []string{"/usr/bin/tini", "--", "sh", "-c", fmt.Sprintf(workerScript, home, remoteName(o))}
	spec := statefulSetSpec{ServiceName: worker, Replicas: o.Replicas, PodManagementPolicy: "Parallel",
		Selector: selector{MatchLabels: labels},
		Template: podTemplate{Metadata: meta{Labels: labels}, Spec: podSpec{ServiceAccountName: worker,
			TerminationGracePeriodSeconds: gracePeriod, SecurityContext: podSecure(),
			Containers: []container{c}, Volumes: []volume{gitVolume("git", "bh-git", false)}}}}
	var data claimSpec
	data.Metadata.Name = "data"
	data.Spec.AccessModes = []string{"ReadWriteOnce"}
	data.Spec.Resources.Requests = map[string]string{"storage": "20Gi"}
	spec.VolumeClaimTemplates = []claimSpec{data}
	return spec
}

// taskPod is one task's pod: bh run-task waits for its run in the
// annotations the claim gives it, runs the agent on it and leaves its
// result in the folder it shares with the helper container, which alone holds the
// credential that can push and pushes that result's one ref (bh run-task
// --push-result). The agent's container reads the remote with bh-git-read
// (a credential that can only fetch; none for a public remote). A warm
// pod that waited a day, or a run killed in it, starts again in place
// (the clone kept on its volume); one that finished stays done until the
// worker deletes its claim. No pod pushes: the worker lands.
func taskPod(o Options) podTemplate {
	no := false
	c := base(o, "task", "work", "read")
	c.Args = []string{"run-task", "--wait", "24h", "--dir", home + "/run", "--out", outDir}
	c.VolumeMounts = append(c.VolumeMounts, mount{Name: "podinfo", MountPath: podinfoDir, ReadOnly: true},
		mount{Name: "out", MountPath: outDir})
	return podTemplate{Metadata: meta{Labels: map[string]string{"app.kubernetes.io/name": task, "app.kubernetes.io/part-of": "bh"}},
		Spec: podSpec{AutomountServiceAccountToken: &no, RestartPolicy: "OnFailure", SecurityContext: podSecure(),
			Containers: []container{c, resultContainer(o)},
			Volumes: []volume{gitVolume("read", "bh-git-read", true), gitVolume("push", "bh-git", false),
				{Name: "podinfo", DownwardAPI: &downwardVolume{Items: []downwardItem{
					{Path: "annotations", FieldRef: fieldRef{FieldPath: "metadata.annotations"}}}}},
				{Name: "work", EmptyDir: &struct{}{}}, {Name: "out", EmptyDir: &struct{}{}}, {Name: "relay", EmptyDir: &struct{}{}}}}}
}

// resultContainer is the task pod's helper: it runs no agent code, reads
// the agent's folder only as data, and pushes one ref with bh-git.
func resultContainer(o Options) container {
	c := base(o, "result", "relay", "push")
	c.Args = []string{"run-task", "--wait", "24h", "--push-result", outDir, "--dir", home}
	if o.MaxResult != "" {
		c.Args = append(c.Args, "--max-result", o.MaxResult)
	}
	c.EnvFrom = nil // the agent's keys are the agent's
	// Why it refused a result (over its limit, say) is the worker's to
	// read in its status: it fails the run rather than wait on the claim.
	c.TerminationMessagePolicy = "FallbackToLogsOnError"
	c.Resources = resources{Requests: map[string]string{"cpu": "50m", "memory": "64Mi"}}
	c.VolumeMounts = append(c.VolumeMounts, mount{Name: "podinfo", MountPath: podinfoDir, ReadOnly: true},
		mount{Name: "out", MountPath: outDir, ReadOnly: true})
	return c
}

// base is the container every pod runs: bh's image, the remote, the
// pod's name as bh's host, git's credential from volume secret and
// identity, the agent's keys.
func base(o Options, name, volume, secret string) container {
	return container{Name: name, Image: o.Image, WorkingDir: home,
		Env: []env{
			{Name: "BH_REMOTE", Value: o.Remote},
			{Name: "BH_HOST", ValueFrom: &valueFrom{FieldRef: fieldRef{FieldPath: "metadata.name"}}},
			{Name: "HOME", Value: home},
			// git reads these as config: the Secret's credential, for
			// fetches and pushes only (get: never written back to it),
			// and who bh's commits are by.
			{Name: "GIT_CONFIG_COUNT", Value: "3"},
			{Name: "GIT_CONFIG_KEY_0", Value: "credential.helper"},
			{Name: "GIT_CONFIG_VALUE_0", Value: `!f() { if [ "$1" = get ] && [ -f ` + gitDir + `/credentials ]; then git credential-store --file=` + gitDir + `/credentials get; fi; }; f`},
			{Name: "GIT_CONFIG_KEY_1", Value: "user.name"},
			{Name: "GIT_CONFIG_VALUE_1", Value: "bh"},
			{Name: "GIT_CONFIG_KEY_2", Value: "user.email"},
			{Name: "GIT_CONFIG_VALUE_2", Value: "bh@" + o.Namespace + ".cluster.invalid"},
		},
		EnvFrom:   []envFrom{{SecretRef: secretRef{Name: "bh-agent", Optional: true}}},
		Resources: resources{Requests: map[string]string{"cpu": "500m", "memory": "1Gi"}},
		VolumeMounts: []mount{{Name: volume, MountPath: home},
			{Name: secret, MountPath: gitDir, ReadOnly: true}},
		SecurityContext: containerSecurity{Capabilities: map[string][]string{"drop": {"ALL"}}}}
}

// gitVolume is Secret name's git credential as volume vol; an optional
// one may be missing (a public remote needs none to fetch).
func gitVolume(vol, name string, optional bool) volume {
	return volume{Name: vol, Secret: &secretVolume{SecretName: name, DefaultMode: 0o440, Optional: optional}}
}

func podSecure() podSecurity {
	return podSecurity{RunAsNonRoot: true, RunAsUser: uid, RunAsGroup: uid, FSGroup: uid,
		SeccompProfile: map[string]string{"type": "RuntimeDefault"}}
}
