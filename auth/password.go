package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Argon2Params are the argon2id cost parameters. The defaults follow the
// OWASP recommendation (19 MiB, 2 passes, 1 lane); tests may lower them.
type Argon2Params struct {
	MemoryKiB uint32
	Time      uint32
	Threads   uint8
}

// DefaultArgon2 is the production cost.
var DefaultArgon2 = Argon2Params{MemoryKiB: 19 * 1024, Time: 2, Threads: 1}

const (
	saltLen = 16
	keyLen  = 32
)

// releaseWorkAreaKiB is the argon2 memory cost from which a hash returns
// its work area to the operating system at once (below it, the cost of a
// forced collection outweighs what it gives back).
const releaseWorkAreaKiB = 1024

// releaseWorkArea gives argon2's work area back to the operating system.
// argon2.IDKey allocates the whole memory cost (19 MiB by default) as one
// block; once it is garbage, the Go runtime keeps the pages for reuse and
// its background scavenger returns them only slowly (it aims to keep the
// heap's recent peak), so a server that had signed one person in stayed
// ~20 MB larger for minutes — on a small instance, for good. A forced
// collection and scavenge right after the hash returns them now; it costs
// about a millisecond beside the hash's tens.
func releaseWorkArea(p Argon2Params) {
	if p.MemoryKiB >= releaseWorkAreaKiB {
		debug.FreeOSMemory()
	}
}

var errBadHash = errors.New("auth: malformed password hash")

// HashPassword returns a PHC-format argon2id hash of password:
// $argon2id$v=19$m=...,t=...,p=...$salt$key (base64, no padding).
func HashPassword(password string, p Argon2Params) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("auth: salt: %w", err)
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, keyLen)
	releaseWorkArea(p)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.MemoryKiB, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// VerifyPassword reports whether password matches the encoded hash, in
// constant time with respect to the key. The cost is read from the hash, so
// old hashes keep working after the defaults change.
func VerifyPassword(password, encoded string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errBadHash
	}
	var p Argon2Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemoryKiB, &p.Time, &p.Threads); err != nil {
		return false, errBadHash
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, errBadHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, errBadHash
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, uint32(len(want)))
	releaseWorkArea(p)
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
