package task

// PullRequest is the URL of the task's pull request (land: pr), the last
// one its history records; "" if none.
func (t *Task) PullRequest() string {
	for i := len(t.History) - 1; i >= 0; i-- {
		if t.History[i].Kind == EventPR {
			return t.History[i].Text
		}
	}
	return ""
}
