package repo

import (
	"fmt"
	"strings"
)

// statusEntry is one line of `git status --porcelain=v2`.
type statusEntry struct {
	Path      string
	Kind      byte   // '1' changed, '2' renamed, 'u' unmerged, '?' untracked
	IndexMode string // staged mode, "000000" when not in the index
	IndexHash string // staged blob
}

type statusResult struct {
	Head    string // "" on an unborn branch
	Entries []statusEntry
}

// status lists every path that differs from HEAD in the index or the working
// tree, untracked files one by one. Ignored files are never listed, and bh never
// records or touches them. Changes inside submodules are the submodule's
// business, not bh's.
func (r *Repo) status() (*statusResult, error) {
	// --branch for the HEAD the listing is against; --no-ahead-behind
	// skips counting commits against the upstream, a walk of history.
	out, err := r.read(nil, "status", "--porcelain=v2", "-z", "--branch", "--no-ahead-behind",
		"--untracked-files=all", "--no-renames", "--ignore-submodules=all")
	if err != nil {
		return nil, fmt.Errorf("status: %w", err)
	}
	return parseStatus(out)
}

func parseStatus(out []byte) (*statusResult, error) {
	res := &statusResult{}
	fields := splitNul(out)
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if f == "" {
			continue
		}
		switch f[0] {
		case '#':
			if oid, ok := strings.CutPrefix(f, "# branch.oid "); ok && oid != "(initial)" {
				res.Head = oid
			}
		case '1', '2':
			n := 9 // kind XY sub mH mI mW hH hI path
			if f[0] == '2' {
				n = 10 // ... score path, then the original path as its own field
			}
			parts := strings.SplitN(f, " ", n)
			if len(parts) != n {
				return nil, fmt.Errorf("status: malformed line %q", f)
			}
			res.Entries = append(res.Entries, statusEntry{
				Path: parts[n-1], Kind: f[0], IndexMode: parts[4], IndexHash: parts[7],
			})
			if f[0] == '2' {
				i++ // the original path: a deletion git folded into the rename
				if i < len(fields) {
					res.Entries = append(res.Entries, statusEntry{
						Path: fields[i], Kind: '1', IndexMode: "000000", IndexHash: zeroHash,
					})
				}
			}
		case 'u':
			parts := strings.SplitN(f, " ", 11)
			if len(parts) != 11 {
				return nil, fmt.Errorf("status: malformed line %q", f)
			}
			res.Entries = append(res.Entries, statusEntry{Path: parts[10], Kind: 'u'})
		case '?':
			res.Entries = append(res.Entries, statusEntry{Path: f[2:], Kind: '?'})
		case '!':
			// ignored: never recorded, never touched
		default:
			return nil, fmt.Errorf("status: unknown line %q", f)
		}
	}
	return res, nil
}

const zeroHash = "0000000000000000000000000000000000000000"
