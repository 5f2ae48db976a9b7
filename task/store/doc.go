// Package store is the .bh/ folder of one repository: a YAML file per
// task, the per-task locks that serialize read-modify-write, and the list
// cache (.git/bh/cache/tasks.bin) that lets bh list parse only the files that
// changed. It runs no git.
package store
