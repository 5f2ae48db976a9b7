package agent

// Limits on the output kept from one agent run: an agent that prints
// gigabytes must not exhaust the worker's memory. Past the limit the middle
// is dropped. The result object comes at the end of stdout and may be large
// (a 5 MB one is valid), so stdout keeps its first OutputHeadBytes for
// diagnosis and the rest of MaxOutputBytes from its end; stderr, read only
// by people, keeps MaxStderrBytes, mostly from its end as well.
const (
	MaxOutputBytes  = 16 << 20
	OutputHeadBytes = 64 << 10
	OutputTailBytes = MaxOutputBytes - OutputHeadBytes
	MaxStderrBytes  = 1 << 20
	StderrTailBytes = 64 << 10
)
