package record

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/astroresearch/astroresearch/store"
)

// rawEvent is one line of the zip's event log: the event as stored.
type rawEvent struct {
	Seq   int64           `json:"seq"`
	Kind  string          `json:"kind"`
	Turn  int             `json:"turn"`
	Agent string          `json:"agent"`
	At    time.Time       `json:"at"`
	Data  json.RawMessage `json:"data"`
}

// WriteZip writes the record's archive to w: record.md, record.tex,
// record.bib (every work read or cited, keyed as the TeX cites them),
// record.json and events.jsonl, the session's raw event log.
func WriteZip(w io.Writer, r Record, events []store.AgentEvent) error {
	zw := zip.NewWriter(w)
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("record: zip: %w", err)
	}
	files := []struct {
		name string
		body []byte
	}{
		{"record.md", []byte(r.Markdown())},
		{"record.tex", []byte(r.TeX())},
		{BibFile + ".bib", []byte(r.BibTeX())},
		{"record.json", js},
	}
	for _, f := range files {
		if err := addFile(zw, f.name, r.Generated, f.body); err != nil {
			return err
		}
	}
	ew, err := zw.CreateHeader(&zip.FileHeader{Name: "events.jsonl", Method: zip.Deflate, Modified: r.Generated})
	if err != nil {
		return fmt.Errorf("record: zip: %w", err)
	}
	enc := json.NewEncoder(ew)
	for _, e := range events {
		data := json.RawMessage(e.Data)
		if !json.Valid(data) {
			data, _ = json.Marshal(e.Data) // kept as a string rather than lost
		}
		if err := enc.Encode(rawEvent{Seq: e.Seq, Kind: e.Kind, Turn: e.Turn, Agent: e.Agent, At: e.CreatedAt, Data: data}); err != nil {
			return fmt.Errorf("record: zip: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("record: zip: %w", err)
	}
	return nil
}

func addFile(zw *zip.Writer, name string, at time.Time, body []byte) error {
	fw, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: at})
	if err == nil {
		_, err = fw.Write(body)
	}
	if err != nil {
		return fmt.Errorf("record: zip %s: %w", name, err)
	}
	return nil
}
