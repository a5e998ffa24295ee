//go:build !linux

package shell

import (
	"os"
	"syscall"
)

// sysProcAttr: process groups are handled on Linux only.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup kills only the process itself outside Linux.
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

// sweep finds nothing outside Linux (no /proc environ).
func sweep(string) int { return 0 }
