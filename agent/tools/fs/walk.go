package fs

import (
	"context"
	"errors"
	iofs "io/fs"
	"strings"
)

// errStopWalk ends a walk early without an error.
var errStopWalk = errors.New("stop walk")

// walkStats counts what a walk met besides the files it reported.
type walkStats struct {
	symlinks   int // symbolic links, never followed
	unreadable int // directories that could not be listed
}

// walkFiles calls fn for every regular file under t (or for t itself when
// it is a file), in lexical order, with the file's path relative to the
// root and relative to t. It walks Root.FS with io/fs.WalkDir, which never
// descends into symbolic links; symbolic links to files are skipped too,
// so a walk cannot leave the root. .git directories are skipped. With
// maxDepth ≥ 0 no file deeper than maxDepth segments below t is reported.
// fn may return errStopWalk to end the walk early.
func walkFiles(ctx context.Context, t *target, maxDepth int, fn func(rootRel, rel string) error) (walkStats, error) {
	var st walkStats
	fsys := t.root.FS()
	info, err := iofs.Stat(fsys, t.rel)
	if err != nil {
		return st, err
	}
	if !info.IsDir() {
		if !info.Mode().IsRegular() {
			return st, nil
		}
		err := fn(t.rel, t.rel[strings.LastIndexByte(t.rel, '/')+1:])
		if err == errStopWalk {
			err = nil
		}
		return st, err
	}
	n := 0
	err = iofs.WalkDir(fsys, t.rel, func(p string, d iofs.DirEntry, err error) error {
		if n++; n%256 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			if p == t.rel {
				return err
			}
			st.unreadable++
			return nil
		}
		rel := p
		if t.rel != "." {
			rel = strings.TrimPrefix(strings.TrimPrefix(p, t.rel), "/")
		}
		switch {
		case d.Type()&iofs.ModeSymlink != 0:
			st.symlinks++
			return nil
		case d.IsDir():
			if p == t.rel {
				return nil
			}
			if d.Name() == ".git" || (maxDepth >= 0 && strings.Count(rel, "/")+1 >= maxDepth) {
				return iofs.SkipDir
			}
			return nil
		case !d.Type().IsRegular():
			return nil
		}
		return fn(p, rel)
	})
	if err == errStopWalk {
		err = nil
	}
	return st, err
}

// note is a footer fragment about what the walk skipped, or "".
func (st walkStats) note() string {
	var parts []string
	if st.symlinks > 0 {
		parts = append(parts, pluralize(st.symlinks, "symbolic link")+" not followed")
	}
	if st.unreadable > 0 {
		parts = append(parts, pluralize(st.unreadable, "unreadable directory", "unreadable directories")+" skipped")
	}
	return strings.Join(parts, ", ")
}

// pluralize is "1 file" / "3 files"; an explicit plural may follow.
func pluralize(n int, singular string, plural ...string) string {
	if n == 1 {
		return "1 " + singular
	}
	p := singular + "s"
	if len(plural) > 0 {
		p = plural[0]
	}
	return itoa(n) + " " + p
}
