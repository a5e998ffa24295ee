package auth

import (
	"runtime"
	"testing"
)

// TestHashReleasesWorkArea: after a hash at the production cost, the
// argon2 work area is not kept by the runtime as idle, unreleased heap
// (it was: the server stayed ~20 MB larger after the first sign-in).
func TestHashReleasesWorkArea(t *testing.T) {
	hash, err := HashPassword("correct horse battery staple", DefaultArgon2)
	if err != nil {
		t.Fatal(err)
	}
	retained := func() uint64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapIdle - ms.HeapReleased
	}
	const limit = 8 << 20 // well under the 19 MiB work area
	if r := retained(); r > limit {
		t.Errorf("after HashPassword %d MiB of idle heap kept, want < %d", r>>20, limit>>20)
	}
	if ok, err := VerifyPassword("correct horse battery staple", hash); err != nil || !ok {
		t.Fatalf("verify: %v %v", ok, err)
	}
	if r := retained(); r > limit {
		t.Errorf("after VerifyPassword %d MiB of idle heap kept, want < %d", r>>20, limit>>20)
	}
}
