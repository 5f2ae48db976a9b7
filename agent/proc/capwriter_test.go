package proc

import "testing"

func TestCapWriter(t *testing.T) {
	// max 10, tail 4: the head is the first 6 bytes.
	const text = "0123456789abcdefghij"
	tests := []struct {
		name   string
		n      int   // bytes of text written
		chunks []int // write sizes; the rest goes in one write
		want   string
	}{
		{"nothing", 0, nil, ""},
		{"under", 7, nil, "0123456"},
		{"exactly max", 10, []int{1, 2, 3}, "0123456789"},
		{"one over", 11, nil, "012345\n… (bh dropped 1 bytes of output here)\n789a"},
		{"far over, one write", 20, nil, "012345\n… (bh dropped 10 bytes of output here)\nghij"},
		{"far over, byte by byte", 20, []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
			"012345\n… (bh dropped 10 bytes of output here)\nghij"},
		{"far over, odd writes", 20, []int{5, 3, 9}, "012345\n… (bh dropped 10 bytes of output here)\nghij"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := NewCapWriter(10, 4)
			rest := text[:tt.n]
			for _, c := range tt.chunks {
				if n, err := w.Write([]byte(rest[:c])); n != c || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
				rest = rest[c:]
			}
			w.Write([]byte(rest))
			if got := string(w.Bytes()); got != tt.want {
				t.Errorf("kept %q, want %q", got, tt.want)
			}
		})
	}
}
