package self

import (
	"context"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// CompressArgs are compress_context's (empty) arguments.
type CompressArgs struct{}

// CompressContext returns the compress_context tool (T16): it asks the
// runtime to compress the conversation before the next model call,
// bypassing (and resetting) the automatic compaction's circuit breaker.
func CompressContext() tools.Tool {
	return tools.New("compress_context",
		"Compress the conversation before your next step: older tool results are shortened and the early "+
			"part is summarised. Use it when the context is long and you are about to start a new phase of work.",
		func(ctx context.Context, tc *tools.Context, _ CompressArgs) (tools.Result, error) {
			if tc.RequestCompaction == nil {
				return tools.Errorf("compress_context is not available here."), nil
			}
			tc.RequestCompaction()
			return tools.Result{Output: "The conversation will be compressed before your next step."}, nil
		},
		tools.WithReadOnly(), tools.WithDeferred(),
	)
}
