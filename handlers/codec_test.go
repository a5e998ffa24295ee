package handlers

import (
	"testing"
	"time"
)

func TestSessionCodecRoundTrip(t *testing.T) {
	deadline := time.Date(2026, 12, 1, 9, 0, 0, 123, time.UTC)
	in := map[string]any{"uid": int64(7), "n": 3, "flash": "Saved.", "__rememberMe": true}
	b, err := sessionCodec{}.Encode(deadline, in)
	if err != nil {
		t.Fatal(err)
	}
	d, out, err := sessionCodec{}.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Equal(deadline) || out["uid"] != int64(7) || out["n"] != int64(3) || out["flash"] != "Saved." || out["__rememberMe"] != true {
		t.Fatalf("round trip: %v %v", d, out)
	}
	if _, err := (sessionCodec{}).Encode(deadline, map[string]any{"x": 1.5}); err == nil {
		t.Fatal("unsupported type accepted")
	}
	if _, _, err := (sessionCodec{}).Decode([]byte("garbage")); err == nil {
		t.Fatal("garbage decoded")
	}
}
