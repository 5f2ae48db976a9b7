// Package worker is bh's loop: it claims ready tasks (up to Options.Jobs at
// once), runs the coding agent on each in the task's own linked worktree,
// and ends each run in one place: the work is landed on the target branch,
// discarded, or kept while a human answers. A completion may wait for a
// human's approval (gates), questions time out by the task's policy, and
// notifications go out through worker/notify. Each run keeps a journal so
// that a worker killed at any instant is recovered on restart. The worker
// never prints: it reports progress through Options.Report.
//
// The rooms below it, each with one purpose (none imports worker):
//
//	worker/ending     the one pure table: what happened → what becomes of the task; what an answer settles
//	worker/act        the one door for what a human does: answer, stop, reopen, resume
//	worker/landing    commit, checks, catch-up, landing, pull requests; typed trouble
//	worker/claims     local claims, leases, heartbeats, the remote's claim refs
//	worker/journal    each run's intent, written before each step a crash could cut in two
//	worker/git        every git call bh makes and every ref it reads
//	worker/git/usertree  the one writer of the user's checkout and index
//	worker/jail       one run's sandbox policy: the config, egress, agent state, outbox
//	worker/taskprompt the agent's prompt for a task, from prompts/ and its rounds
//	worker/storegit   .bh/ in git: bh sync, bh init's commit, bh's kept copies
//	worker/doctor     bh doctor's findings and fixes, over what ForDoctor hands it
//	worker/notify     notifications (desktop, webhook, command)
//	worker/github     GitHub issues as tasks and as the channel of their questions; its webhooks
//	worker/outage     the pause after an agent outage; usage limits shared as a ref
//	worker/budget     spend budgets per task and per window
//	worker/runlog     one run's log and its transcript
//	worker/slots      the pool of warm worktree slots
//	worker/watch      the task files' watcher that wakes the loop
//	worker/kube       runner: k8s: each run's agent in a pod that cannot push, and bh run-task;
//	                  its cluster client runs apart, in bh-kube (worker/kube/kubeapi)
//
// What only the command line uses lives under cmd: the web inbox (cmd/web,
// which bh-web links and bh does not), the undo window (cmd/undo) and bh
// demo's agent (cmd/demoagent).
package worker
