package llm

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Config configures a Client. Only BaseURL is required; zero values get
// the defaults described on each field.
type Config struct {
	// BaseURL of the OpenAI-compatible API, including the version path
	// (e.g. http://localhost:11434/v1).
	BaseURL string
	// APIKey is sent as a bearer token when non-empty.
	APIKey string
	// Model is the primary model; empty means ResolveModel asks the
	// endpoint and takes the first model it lists.
	Model string
	// FallbackModel is used after 3 consecutive overloads of the primary (R5).
	FallbackModel string
	// FallbackChain is rotated through on each further 3 consecutive overloads.
	FallbackChain []string
	// HTTPClient is copied and its transport wrapped (see transport); nil
	// means a client without an overall timeout (streams can run long:
	// bound calls with the context instead).
	HTTPClient *http.Client
	// Sleep waits between retries and must return ctx.Err() promptly when
	// ctx ends; nil means SleepContext. Tests inject a recorder.
	Sleep func(ctx context.Context, d time.Duration) error
	// Rand returns a number in [0, 1) for retry jitter; nil means math/rand/v2.
	Rand func() float64
	// Now is the clock used to read HTTP-date Retry-After headers; nil means time.Now.
	Now func() time.Time
	// Log receives retry and fallback lines; nil discards them.
	Log *slog.Logger
}

// Client talks to one OpenAI-compatible endpoint. It is safe for concurrent
// use; the active model (see ActiveModel, SetModel) is shared by all callers.
type Client struct {
	cfg    Config
	api    *openai.Client
	models *modelState
}

// New returns a client for cfg. It does no I/O.
func New(cfg Config) *Client {
	cfg = withDefaults(cfg)
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	oc.HTTPClient = wrapHTTPClient(cfg.HTTPClient)
	return &Client{
		cfg:    cfg,
		api:    openai.NewClientWithConfig(oc),
		models: newModelState(cfg.Model, cfg.FallbackModel, cfg.FallbackChain),
	}
}

func withDefaults(cfg Config) Config {
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{}
	}
	if cfg.Sleep == nil {
		cfg.Sleep = SleepContext
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Float64
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return cfg
}

// SleepContext waits for d or until ctx ends, whichever comes first; it
// returns ctx.Err() in the latter case. It is the default Config.Sleep.
func SleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
