package sandbox

import "os"

// System are the host's folders every sandbox sees, read-only and as the
// host has them: the programs and their libraries (/usr, and /bin, /sbin,
// /lib* where a system still keeps them apart), the machine's settings
// (/etc) and the kernel's view (/sys). /dev, /proc and /tmp are the
// sandbox's own. Nothing else of the host's root is there (no /home,
// /root, /run, /var, /opt, /srv, /mnt): only what the policy binds.
var System = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/sys"}

// systemArgs bind System into bwrap's empty root: a folder read-only, a
// link as the same link (merged /usr: /bin -> usr/bin).
func systemArgs() []string {
	var a []string
	for _, p := range System {
		fi, err := os.Lstat(p)
		switch {
		case err != nil:
		case fi.Mode()&os.ModeSymlink != 0:
			if to, err := os.Readlink(p); err == nil {
				a = append(a, "--symlink", to, p)
			}
		default:
			a = append(a, "--ro-bind", p, p)
		}
	}
	return a
}
