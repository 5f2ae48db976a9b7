// Package github makes a GitHub repository's issues a source of tasks and
// a channel for their questions: Import turns labelled (or assigned) issues
// into tasks, once each, found again by their link (task.Task.Source);
// Channel posts a waiting task's questions on its issue, takes a reply by
// a collaborator with write access as the answer through the one door
// (worker/act), notes answers given elsewhere and how the task ended.
// Sync does all of it in one pass, as bh import github, bh sync and the
// worker call it; Webhook is bh serve's door for GitHub's own events.
//
// It speaks to the REST API with net/http and the user's token (from
// GH_TOKEN, else gh auth token: gh's own login), not through `gh api`:
// polling with conditional requests needs each response's status and
// ETag, and a quiet poll every minute should not start a process (1,000
// of them took 1,000 gh processes; through net/http they are 1,000 304s,
// which cost no rate limit). The token stays in this process: nothing of
// it goes into an agent's sandbox.
package github
