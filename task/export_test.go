package task

// The external tests (package task_test, which may import the fixtures of
// task/internal/tasktest) reach the two readers that must agree.
var (
	DecodeFast = decodeFast
	DecodeYAML = decodeYAML
)
