package compact

import (
	"context"
	"errors"

	"github.com/astroresearch/astroresearch/agent/llm"
)

// ErrBusy is returned by Manual when a compaction is already running (in
// this session, or up the call chain of ctx).
var ErrBusy = errors.New("compact: a compaction is already running")

// Auto is the automatic compaction of docs/features.md C9, to call before each model
// call with the tracked token count. It runs Compress when tokens are over
// the soft limit, no compaction is running (recursion guard) and the
// breaker allows it, then records the outcome in the breaker: success means
// fewer messages. ran is false when it did not try. The error is ctx's.
func Auto(ctx context.Context, b *Breaker, msgs []llm.Message, tokens int, opt Options) (res Result, ran bool, err error) {
	if !Trigger(tokens, opt.Budget) || Active(ctx) {
		return Result{}, false, nil
	}
	release, ok := b.Enter()
	if !ok {
		return Result{}, false, nil
	}
	defer release()
	if !b.Allow() {
		return Result{}, false, nil
	}
	opt.Force = false
	res, err = Compress(ctx, msgs, opt)
	if err != nil {
		b.abandon()
		return Result{}, false, err
	}
	b.Record(res.After < res.Before)
	return res, true, nil
}

// Manual is compress_context (docs/features.md C9): it bypasses the breaker and resets
// it, and runs Compress with Force. It returns ErrBusy inside another
// compaction.
func Manual(ctx context.Context, b *Breaker, msgs []llm.Message, opt Options) (Result, error) {
	if Active(ctx) {
		return Result{}, ErrBusy
	}
	release, ok := b.Enter()
	if !ok {
		return Result{}, ErrBusy
	}
	defer release()
	b.Reset()
	opt.Force = true
	return Compress(ctx, msgs, opt)
}
