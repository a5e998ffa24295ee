package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/astroresearch/astroresearch/agent/textcut"
)

// BridgeOptions configure Bridge.
type BridgeOptions struct {
	// Endpoint is the server's MCP URL, e.g. https://host/astro/mcp.
	Endpoint string
	// Token is the user's personal API token.
	Token string
	// HTTPClient sends the requests (http.DefaultClient when nil); its
	// redirects are never followed, so the token goes to Endpoint only.
	HTTPClient *http.Client
	// Log receives what went wrong (stderr for the command; never the
	// protocol stream).
	Log *slog.Logger
}

// maxBridgeCalls bounds the calls relayed at once.
const maxBridgeCalls = 8

// maxResponseBytes bounds one HTTP response read by the bridge.
const maxResponseBytes = 32 << 20

// Bridge relays MCP between a client speaking stdio (newline-delimited
// JSON-RPC on in and out, as clients that only launch local commands do)
// and a running server's streamable HTTP endpoint, adding the token to
// every request. Calls run concurrently; a notifications/cancelled from the
// client stops the matching request. A refused token or an unreachable
// server is answered to the client as a JSON-RPC error that says so. It
// returns nil when in ends, or ctx's error.
func Bridge(ctx context.Context, in io.Reader, out io.Writer, o BridgeOptions) error {
	o.HTTPClient = noRedirects(o.HTTPClient)
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	conn, err := (&mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}}).Connect(ctx)
	if err != nil {
		return fmt.Errorf("mcp bridge: %w", err)
	}
	b := &bridge{o: o, conn: conn, calls: map[any]context.CancelFunc{}, slots: make(chan struct{}, maxBridgeCalls)}
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		b.wg.Wait()
	}()
	for {
		msg, err := conn.Read(ctx)
		switch {
		case errors.Is(err, io.EOF):
			b.wg.Wait() // answer what was asked before the client closed
			return nil
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			return fmt.Errorf("mcp bridge: read from the client: %w", err)
		}
		b.relay(ctx, msg)
	}
}

// noRedirects is a copy of c (http.DefaultClient when nil) that does not
// follow redirects: a redirect would carry the token to wherever it points
// (another path, plain http on the same host), so it is reported to the
// client as an error naming the new location instead.
func noRedirects(c *http.Client) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	cp := *c
	cp.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &cp
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// bridge is one Bridge run.
type bridge struct {
	o     BridgeOptions
	conn  mcp.Connection
	wg    sync.WaitGroup
	slots chan struct{}

	mu      sync.Mutex
	calls   map[any]context.CancelFunc // in-flight calls by request id
	version string                     // negotiated protocol version
	session string                     // Mcp-Session-Id, if the server gives one
	initID  any                        // id of the initialize request
	writeMu sync.Mutex
}

// relay sends one client message to the server: calls in their own
// goroutine, cancellations handled here.
func (b *bridge) relay(ctx context.Context, msg jsonrpc.Message) {
	req, isReq := msg.(*jsonrpc.Request)
	if isReq && req.Method == "notifications/cancelled" {
		var p struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			b.mu.Lock()
			if stop, ok := b.calls[normID(p.RequestID)]; ok {
				stop()
			}
			b.mu.Unlock()
		}
		return
	}
	if !isReq || !req.IsCall() {
		b.post(ctx, msg) // notifications and responses: nothing comes back
		return
	}
	id := normID(req.ID.Raw())
	callCtx, stop := context.WithCancel(ctx)
	b.mu.Lock()
	b.calls[id] = stop
	if req.Method == "initialize" {
		b.initID = id
	}
	b.mu.Unlock()
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer func() {
			b.mu.Lock()
			delete(b.calls, id)
			b.mu.Unlock()
			stop()
		}()
		select {
		case b.slots <- struct{}{}:
			defer func() { <-b.slots }()
		case <-callCtx.Done():
			return
		}
		if err := b.post(callCtx, req); err != nil && callCtx.Err() == nil {
			b.write(&jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}})
		}
	}()
}

// normID makes JSON numbers and strings comparable as map keys.
func normID(v any) any {
	switch n := v.(type) {
	case int64:
		return float64(n)
	case int:
		return float64(n)
	}
	return v
}

// post sends msg and relays whatever comes back. Its error explains a
// failure for the client.
func (b *bridge) post(ctx context.Context, msg jsonrpc.Message) error {
	body, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.o.Endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+b.o.Token)
	b.mu.Lock()
	if b.version != "" {
		req.Header.Set("MCP-Protocol-Version", b.version)
	}
	if b.session != "" {
		req.Header.Set("Mcp-Session-Id", b.session)
	}
	b.mu.Unlock()
	res, err := b.o.HTTPClient.Do(req)
	if err != nil {
		b.o.Log.Error("cannot reach AstroResearch", "url", b.o.Endpoint, "err", err)
		return fmt.Errorf("cannot reach AstroResearch at %s: %v", b.o.Endpoint, err)
	}
	defer res.Body.Close()
	if s := res.Header.Get("Mcp-Session-Id"); s != "" {
		b.mu.Lock()
		b.session = s
		b.mu.Unlock()
	}
	if res.StatusCode >= 300 {
		detail, _ := io.ReadAll(io.LimitReader(res.Body, 2048))
		msg := fmt.Sprintf("AstroResearch answered HTTP %d: %s", res.StatusCode, strings.TrimSpace(textcut.Prefix(string(detail), 500)))
		if loc := res.Header.Get("Location"); res.StatusCode < 400 && loc != "" {
			msg = fmt.Sprintf("AstroResearch at %s redirects (HTTP %d) to %s; the token is not sent there. "+
				"Give the server's address as it answers, BASE_PATH included (--url or ASTRO_URL).", b.o.Endpoint, res.StatusCode, loc)
		}
		if res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden {
			msg = fmt.Sprintf("AstroResearch refused the API token (HTTP %d). Check ASTRO_TOKEN or --token-file: create a token under Settings → Personal API tokens. %s",
				res.StatusCode, strings.TrimSpace(textcut.Prefix(string(detail), 300)))
		}
		b.o.Log.Error("request refused", "url", b.o.Endpoint, "status", res.StatusCode)
		return errors.New(msg)
	}
	media, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	switch media {
	case "text/event-stream":
		return b.relayEvents(io.LimitReader(res.Body, maxResponseBytes))
	case "application/json":
		data, err := io.ReadAll(io.LimitReader(res.Body, maxResponseBytes))
		if err != nil {
			return err
		}
		return b.relayJSON(data)
	}
	return nil // 202 Accepted for notifications and responses
}

// relayEvents forwards each SSE event's data to the client.
func (b *bridge) relayEvents(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxResponseBytes)
	var data strings.Builder
	flush := func() error {
		if data.Len() == 0 {
			return nil
		}
		defer data.Reset()
		return b.relayJSON([]byte(data.String()))
	}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if err := flush(); err != nil {
				return err
			}
		case strings.HasPrefix(line, "data:"):
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading AstroResearch's answer: %w", err)
	}
	return flush()
}

// relayJSON forwards one message (or a batch) to the client, noting the
// protocol version the server chose in its initialize result.
func (b *bridge) relayJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	var raws []json.RawMessage
	if len(data) > 0 && data[0] == '[' {
		if err := json.Unmarshal(data, &raws); err != nil {
			return fmt.Errorf("AstroResearch sent a malformed batch: %w", err)
		}
	} else {
		raws = []json.RawMessage{data}
	}
	for _, raw := range raws {
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			return fmt.Errorf("AstroResearch sent a malformed message: %w", err)
		}
		if res, ok := msg.(*jsonrpc.Response); ok {
			b.noteVersion(res)
		}
		b.write(msg)
	}
	return nil
}

func (b *bridge) noteVersion(res *jsonrpc.Response) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.initID == nil || normID(res.ID.Raw()) != b.initID || res.Error != nil {
		return
	}
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(res.Result, &r) == nil {
		b.version = r.ProtocolVersion
	}
}

// write sends one message to the client; concurrent calls are serialised.
func (b *bridge) write(msg jsonrpc.Message) {
	b.writeMu.Lock()
	defer b.writeMu.Unlock()
	if err := b.conn.Write(context.Background(), msg); err != nil {
		b.o.Log.Error("write to the client", "err", err)
	}
}
