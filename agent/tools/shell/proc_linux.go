package shell

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// sysProcAttr starts the command (bash, or bwrap) in a new session, hence
// a new process group whose id is its pid, with no controlling terminal;
// it is killed if the thread that started it dies with the app.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup sends SIGKILL to the process group pgid. A group that is
// already gone is not an error.
func killGroup(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// sweepRounds bounds sweep: a process forking while it is being swept is
// caught in the next round.
const sweepRounds = 5

// sweep kills every process whose environment carries this call's run id:
// the ones that left the process group (setsid, a daemon's double fork).
// It is defence in depth behind the process group (and, in the sandbox,
// the pid namespace): a process that rewrote its environment escapes it.
// It returns how many processes it killed.
func sweep(runID string) int {
	marker := []byte(runIDVar + "=" + runID + "\x00")
	self := os.Getpid()
	killed := 0
	for range sweepRounds {
		found := 0
		entries, err := os.ReadDir("/proc")
		if err != nil {
			return killed
		}
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == self {
				continue
			}
			env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
			if err != nil || !hasEnvEntry(env, marker) {
				continue
			}
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				found++
			}
		}
		if found == 0 {
			break
		}
		killed += found
	}
	return killed
}

// hasEnvEntry reports whether the NUL-separated environ block holds the
// entry marker ("KEY=value\x00").
func hasEnvEntry(environ, marker []byte) bool {
	return bytes.HasPrefix(environ, marker) || bytes.Contains(environ, append([]byte{0}, marker...))
}
