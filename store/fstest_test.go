package store

import (
	"io/fs"
	"testing/fstest"
)

// fstestMap builds an in-memory migrations directory from name → SQL.
type fstestMap map[string]string

func (m fstestMap) Open(name string) (fs.File, error) {
	mfs := fstest.MapFS{}
	for k, v := range m {
		mfs[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return mfs.Open(name)
}
