package astro

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/research/sesame"
)

type fakeResolver map[string]sesame.Object

func (f fakeResolver) Resolve(ctx context.Context, name string) (sesame.Object, error) {
	switch name {
	case "down":
		return sesame.Object{}, fmt.Errorf("%w: HTTP 503", sesame.ErrUnavailable)
	case "":
		return sesame.Object{}, errors.New("sesame: the name is empty")
	}
	o, ok := f[name]
	if !ok {
		return sesame.Object{}, fmt.Errorf("sesame: %q: %w", name, sesame.ErrNotFound)
	}
	return o, nil
}

func TestQueryTarget(t *testing.T) {
	z, v := 0.004283, 1284.0
	tool := QueryTarget(fakeResolver{"M87": {Name: "M 87", Type: "AGN", RADeg: 187.70593, DecDeg: 12.39112,
		RASex: "12:30:49.42", DecSex: "+12:23:28.0", Redshift: &z, VelocityKmS: &v, Aliases: []string{"NGC 4486", "Virgo A"}, Resolver: "Simbad"}})
	run := func(name string) tools.Result {
		args, _ := json.Marshal(TargetArgs{Name: name})
		res, err := tool.Execute(context.Background(), &tools.Context{}, args)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run("M87")
	for _, want := range []string{"M 87 (type AGN)", "RA  12:30:49.42 = 187.705930 deg", "Dec +12:23:28.0", "z = 0.004283", "1284 km/s", "NGC 4486; Virgo A", "Simbad"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Output)
		}
	}
	if res := run("xyzzy"); !res.IsError || !strings.Contains(res.Output, "not found by Sesame") {
		t.Fatalf("unknown: %+v", res)
	}
	if res := run("down"); !res.IsError || !strings.Contains(res.Output, "could not be reached") {
		t.Fatalf("down: %+v", res)
	}
	if !tools.Caps(tool).ReadOnly {
		t.Fatal("query_target must be read-only")
	}
}
