//go:build !linux

package task

import "unsafe"

const hugePages = false

func adviseHuge(unsafe.Pointer, uintptr) {}
