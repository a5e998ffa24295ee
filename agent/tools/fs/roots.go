package fs

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// Options says which directories the filesystem tools may reach.
type Options struct {
	// DataDir is the application's data directory (required). It holds
	// tool-results/ and, by default, workspace/; it is never a root itself
	// because the database lives there.
	DataDir string
	// WorkspaceDir is the read-write root (default {DataDir}/workspace).
	WorkspaceDir string
	// LibraryDir holds the downloaded, parsed papers; read-only. Empty
	// leaves the library/ root out.
	LibraryDir string
	// SkillsDir holds SKILL.md files; read-only unless SkillsWritable.
	// Empty leaves the skills/ root out.
	SkillsDir string
	// SkillsWritable lets the agent create and edit skills. Off by default:
	// a skill is an instruction the agent follows later, so a write there
	// outlives the session that made it.
	SkillsWritable bool
	// SharedWorkspace gives every user the same workspace directory. By
	// default each user gets {WorkspaceDir}/u{UserID}, so one user's agent
	// never reads another user's notes.
	SharedWorkspace bool
	// Protected lists files or directories (the database, a .env file) that
	// no root may contain; OpenRoots fails if one does. DataDir is always
	// protected.
	Protected []string
}

// Roots is the set of directories the filesystem tools may use, each open
// as an os.Root. It is safe for concurrent use; Close releases it.
type Roots struct {
	dirs            map[string]*rootDir
	names           []string // configured roots in rootOrder
	sharedWorkspace bool

	mu    sync.Mutex
	users map[int64]*os.Root // per-user workspace sub-roots
}

type rootDir struct {
	root     *os.Root
	writable bool
}

// OpenRoots creates the workspace, tool-results (and configured library and
// skills) directories if needed and opens each as an os.Root. It fails when
// a root is, or contains, the data directory or a protected path.
func OpenRoots(opts Options) (*Roots, error) {
	if opts.DataDir == "" {
		return nil, errors.New("fs: OpenRoots: DataDir is required")
	}
	if opts.WorkspaceDir == "" {
		opts.WorkspaceDir = filepath.Join(opts.DataDir, "workspace")
	}
	dirs := []struct {
		name, dir string
		writable  bool
	}{
		{RootWorkspace, opts.WorkspaceDir, true},
		{RootLibrary, opts.LibraryDir, false},
		{RootSkills, opts.SkillsDir, opts.SkillsWritable},
		{RootToolResults, filepath.Join(opts.DataDir, "tool-results"), false},
	}
	protected := append([]string{opts.DataDir}, opts.Protected...)
	r := &Roots{dirs: map[string]*rootDir{}, sharedWorkspace: opts.SharedWorkspace, users: map[int64]*os.Root{}}
	for _, d := range dirs {
		if d.dir == "" {
			continue
		}
		if err := os.MkdirAll(d.dir, 0o750); err != nil {
			r.Close()
			return nil, fmt.Errorf("fs: %s root: %w", d.name, err)
		}
		if err := checkProtected(d.dir, protected); err != nil {
			r.Close()
			return nil, fmt.Errorf("fs: %s root: %w", d.name, err)
		}
		root, err := os.OpenRoot(d.dir)
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("fs: %s root: %w", d.name, err)
		}
		r.dirs[d.name] = &rootDir{root: root, writable: d.writable}
	}
	for _, name := range rootOrder {
		if r.dirs[name] != nil {
			r.names = append(r.names, name)
		}
	}
	return r, nil
}

// checkProtected fails when dir is, or is an ancestor of, a protected path.
func checkProtected(dir string, protected []string) error {
	d, err := canonical(dir)
	if err != nil {
		return err
	}
	for _, p := range protected {
		if p == "" {
			continue
		}
		cp, err := canonical(p)
		if err != nil {
			return err
		}
		if rel, err := filepath.Rel(d, cp); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return fmt.Errorf("%s would expose %s (the data directory, database or configuration)", dir, p)
		}
	}
	return nil
}

// canonical makes p absolute with symbolic links resolved as far as the
// path exists (a protected file need not exist yet).
func canonical(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for cur := abs; ; cur = filepath.Dir(cur) {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest), nil
		}
		if filepath.Dir(cur) == cur {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
	}
}

// Close closes every root. Tools must not be used afterwards.
func (r *Roots) Close() error {
	var errs []error
	r.mu.Lock()
	for id, u := range r.users {
		errs = append(errs, u.Close())
		delete(r.users, id)
	}
	r.mu.Unlock()
	for _, d := range r.dirs {
		errs = append(errs, d.root.Close())
	}
	return errors.Join(errs...)
}

// Names lists the configured roots in a fixed order.
func (r *Roots) Names() []string { return append([]string(nil), r.names...) }

// Writable reports whether the agent may write in the named root.
func (r *Roots) Writable(name string) bool {
	d := r.dirs[name]
	return d != nil && d.writable
}

// rootList is "workspace/, library/ and tool-results/" for messages.
func (r *Roots) rootList() string {
	parts := make([]string, len(r.names))
	for i, n := range r.names {
		parts[i] = n + "/"
	}
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// target is a resolved path: the os.Root it lives in and its place there.
type target struct {
	root     *os.Root
	owned    bool   // root was opened for this call; close releases it
	rootName string // "workspace", ...
	prefix   string // display prefix: "workspace", "tool-results/<session>"
	rel      string // slash path inside root, "." for the root itself
	writable bool
}

// display is the path as the model should write it.
func (t *target) display() string { return joinDisplay(t.prefix, t.rel) }

// close releases a per-call root.
func (t *target) close() {
	if t.owned {
		t.root.Close()
	}
}

// resolve checks p and finds its root. The error text is meant for the
// model. The caller must call close on the target.
func (r *Roots) resolve(tc *tools.Context, p string) (*target, error) {
	clean, err := CleanPath(p)
	if err != nil {
		return nil, fmt.Errorf("%q: %w. Allowed roots: %s", p, err, r.rootList())
	}
	name, rel := splitRoot(clean)
	d := r.dirs[name]
	if d == nil {
		return nil, fmt.Errorf("%q: the %s/ root is not available here; allowed roots: %s", p, name, r.rootList())
	}
	t := &target{root: d.root, rootName: name, prefix: name, rel: rel, writable: d.writable}
	switch name {
	case RootWorkspace:
		if !r.sharedWorkspace {
			var uid int64
			if tc != nil {
				uid = tc.UserID
			}
			if t.root, err = r.userRoot(uid); err != nil {
				return nil, fmt.Errorf("%q: the workspace is not available: %s", p, errText(err))
			}
		}
	case RootToolResults:
		return r.resolveToolResults(tc, p, t)
	}
	return t, nil
}

// resolveToolResults narrows tool-results/ to the calling session's own
// directory, opened as a root of its own for this call.
func (r *Roots) resolveToolResults(tc *tools.Context, p string, t *target) (*target, error) {
	if tc == nil || tc.SessionID == "" {
		return nil, fmt.Errorf("%q: tool-results/ needs a session", p)
	}
	sess := SessionDirName(tc.SessionID)
	first, rest, _ := strings.Cut(t.rel, "/")
	switch {
	case first == sess:
		t.rel = rest
	case strings.Contains(t.rel, "/"):
		return nil, fmt.Errorf("%q: tool-results/ holds only this session's saved outputs, under tool-results/%s/", p, sess)
	}
	if t.rel == "" {
		t.rel = "."
	}
	sub, err := t.root.OpenRoot(sess)
	if err != nil {
		if errors.Is(err, iofs.ErrNotExist) {
			return nil, fmt.Errorf("%q does not exist: no outputs have been saved in this session", p)
		}
		return nil, fmt.Errorf("%q: %s", p, errText(err))
	}
	t.root, t.owned, t.prefix = sub, true, RootToolResults+"/"+sess
	return t, nil
}

// userRoot returns the user's private workspace directory as a root,
// creating it on first use.
func (r *Roots) userRoot(uid int64) (*os.Root, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if u := r.users[uid]; u != nil {
		return u, nil
	}
	base := r.dirs[RootWorkspace].root
	name := UserWorkspace(uid)
	if err := base.MkdirAll(name, 0o750); err != nil {
		return nil, err
	}
	u, err := base.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	r.users[uid] = u
	return u, nil
}

// describeErr turns a filesystem error on display into a sentence for the
// model, without host paths.
func describeErr(display string, err error) string {
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return display + " does not exist"
	case errors.Is(err, iofs.ErrPermission):
		return "permission denied for " + display
	case errors.Is(err, syscall.ELOOP):
		return display + ": too many levels of symbolic links"
	case errors.Is(err, syscall.ENOTDIR):
		return display + ": a component of the path is not a directory"
	case strings.Contains(err.Error(), "escapes"):
		return display + " leads outside its root (through a symbolic link); refused"
	}
	return "cannot access " + display + ": " + errText(err)
}

// errText is err without the path of an *os.PathError, which may name a
// host directory.
func errText(err error) string {
	var pe *iofs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Op + ": " + le.Err.Error()
	}
	return err.Error()
}
