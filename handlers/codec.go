package handlers

import (
	"encoding/json"
	"fmt"
	"time"
)

// sessionCodec encodes session data as small typed JSON. scs's default gob
// codec compiles a decoder on every request, which was a fifth of a signed-in
// page's cost; our sessions only hold integers, strings and booleans.
type sessionCodec struct{}

type codecValue struct {
	I *int64  `json:"i,omitempty"`
	S *string `json:"s,omitempty"`
	B *bool   `json:"b,omitempty"`
}

type codecData struct {
	Deadline int64                 `json:"d"` // Unix nanoseconds
	Values   map[string]codecValue `json:"v"`
}

// Encode implements scs.Codec. Values of other types are a programming
// error and are refused.
func (sessionCodec) Encode(deadline time.Time, values map[string]any) ([]byte, error) {
	d := codecData{Deadline: deadline.UnixNano(), Values: make(map[string]codecValue, len(values))}
	for k, v := range values {
		switch v := v.(type) {
		case int64:
			d.Values[k] = codecValue{I: &v}
		case int:
			n := int64(v)
			d.Values[k] = codecValue{I: &n}
		case string:
			d.Values[k] = codecValue{S: &v}
		case bool:
			d.Values[k] = codecValue{B: &v}
		default:
			return nil, fmt.Errorf("session codec: key %q has unsupported type %T", k, v)
		}
	}
	return json.Marshal(d)
}

// Decode implements scs.Codec.
func (sessionCodec) Decode(b []byte) (time.Time, map[string]any, error) {
	var d codecData
	if err := json.Unmarshal(b, &d); err != nil {
		return time.Time{}, nil, fmt.Errorf("session codec: %w", err)
	}
	values := make(map[string]any, len(d.Values))
	for k, v := range d.Values {
		switch {
		case v.I != nil:
			values[k] = *v.I
		case v.S != nil:
			values[k] = *v.S
		case v.B != nil:
			values[k] = *v.B
		}
	}
	return time.Unix(0, d.Deadline), values, nil
}
