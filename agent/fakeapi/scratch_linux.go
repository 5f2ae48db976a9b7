package fakeapi

import "syscall"

const tmpfsMagic = 0x01021994 // statfs(2)

// roomy says whether dir is a writable tmpfs with a few GiB free: a
// container's default 64 MiB /dev/shm would fill up.
func roomy(dir string) bool {
	var st syscall.Statfs_t
	if syscall.Statfs(dir, &st) != nil || st.Type != tmpfsMagic || syscall.Access(dir, 2 /* W_OK */) != nil {
		return false
	}
	return st.Bavail*uint64(st.Bsize) >= 2<<30
}
