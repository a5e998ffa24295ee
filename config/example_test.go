package config

import (
	"os"
	"regexp"
	"testing"
)

// TestEnvExampleDocumentsEveryVariable keeps .env.example true: every
// variable Load reads is listed there, and the file's values load cleanly.
func TestEnvExampleDocumentsEveryVariable(t *testing.T) {
	read := map[string]bool{}
	if _, err := Load(func(k string) string { read[k] = true; return "" }); err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile("../.env.example")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^([A-Z0-9_]+)=(.*)$`).FindAllStringSubmatch(string(body), -1) {
		listed[m[1]] = m[2]
	}
	for k := range read {
		if _, ok := listed[k]; !ok {
			t.Errorf(".env.example does not document %s", k)
		}
	}
	for k := range listed {
		if !read[k] {
			t.Errorf(".env.example lists %s, which the configuration never reads", k)
		}
	}
	if _, err := Load(func(k string) string { return listed[k] }); err != nil {
		t.Errorf(".env.example values do not load: %v", err)
	}
}
