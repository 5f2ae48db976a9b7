package board

// Frame is the board's first frame over opts.Store at width × height
// cells, as Run draws it, without a terminal: what the tests of what the
// board shows read (the agent text fuzz of cmd).
func Frame(opts Options, width, height int) string {
	m := newBoardModel(opts)
	defer m.close()
	m.width, m.height = width, height
	return m.View()
}
