package store

import (
	"os"
	"sync"
	"time"
)

// stamp is what the list cache checks to trust a file without reading it:
// its size, modification and change times and inode. ctime and ino are 0
// where the system has none. A gone file has size -1.
type stamp struct {
	size  int64
	mtime int64 // ns
	ctime int64 // ns
	ino   uint64
}

var gone = stamp{size: -1}

// racySlack covers coarse file system clocks (whole seconds on some): a
// file changed within it of a listing could change again and keep the same
// stamp, so it is not trusted until it is older than that.
var racySlack = 2 * time.Second // a variable only so that tests need not wait

// settled reports whether a stamp taken after start can be trusted later:
// any change after start gives the file a newer ctime (mtime where the
// system has no ctime), which users cannot set back as they can mtime.
func (st stamp) settled(start time.Time) bool {
	limit := start.Add(-racySlack).UnixNano()
	return st.size >= 0 && st.mtime < limit && st.ctime < limit
}

// statAll stamps the file of every task ID in dir. A stat costs about
// 2.5 µs in this project's VMs, and four goroutines overlap them well even
// on two cores.
func statAll(dir *os.File, names []string) []stamp {
	out := make([]stamp, len(names))
	workers := min(1+len(names)/512, 4)
	fd, path := dir.Fd(), dir.Name()
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(names)/workers, (w+1)*len(names)/workers
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				out[i] = statAt(fd, path, names[i]+".yaml")
			}
		})
	}
	wg.Wait()
	return out
}
