//go:build !linux

package store

import "unsafe"

const hugePages = false

func adviseHuge(unsafe.Pointer, uintptr) {}
