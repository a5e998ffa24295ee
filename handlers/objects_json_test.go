package handlers

import (
	"net/http"
	"strings"
	"testing"
)

// TestObjectAndMeasurementJSONListsAreArrays: the lists of the JSON
// shapes are [] when empty, never null (a client iterates them as given).
func TestObjectAndMeasurementJSONListsAreArrays(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	obj := c.get("/api/objects/NGC%201275")
	expectStatus(t, "object", obj, http.StatusOK)
	for _, key := range []string{`"papers":null`, `"passages":null`, `"aliases":null`, `"resolvers":null`, `"notes":null`, `"tried":null`} {
		if strings.Contains(obj.body, key) {
			t.Errorf("object JSON has %s: %s", key, obj.body)
		}
	}
	m := c.get("/api/measurements?quantity=H0")
	expectStatus(t, "measurements", m, http.StatusOK)
	for _, key := range []string{`"rows":null`, `"names":null`} {
		if strings.Contains(m.body, key) {
			t.Errorf("measurements JSON has %s: %s", key, m.body)
		}
	}
}
