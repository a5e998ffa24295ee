package handlers

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent"
)

// Benchmarks of the event path over real HTTP against the targets
// (under 64 KB per idle SSE subscriber; event throughput for the record).
// Figures are reported with b.ReportMetric and never asserted (docs/architecture.md, "Tests and benchmarks").

// openBenchStream opens a session's event stream over HTTP with hc,
// resuming after seq when it is non-zero. It returns once the response
// headers arrived, i.e. once the handler has subscribed.
func (c *client) openBenchStream(ctx context.Context, hc *http.Client, session string, after int64) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.a.url("/api/sessions/"+session+"/events"), nil)
	if err != nil {
		return nil, err
	}
	if after > 0 {
		req.Header.Set("Last-Event-ID", strconv.FormatInt(after, 10))
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		res.Body.Close()
		return nil, fmt.Errorf("events: %d %v", res.StatusCode, res.Header)
	}
	return res, nil
}

// benchSessions creates n agent sessions owned by the admin.
func (a *testApp) benchSessions(b *testing.B, n int) []string {
	b.Helper()
	ctx := context.Background()
	u, err := a.store.UserByName(ctx, adminName)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]string, n)
	for i := range out {
		s, err := a.store.CreateAgentSession(ctx, u.ID, "bench")
		if err != nil {
			b.Fatal(err)
		}
		out[i] = s.ID
	}
	return out
}

// streamOutcome is what a reading client saw.
type streamOutcome struct {
	lastAt     time.Time // when the frame with the wanted id arrived
	frames     int
	reconnects int
	err        error
}

// readStream reads frames until the one with id want, like a browser
// EventSource: when the server ends the stream (a subscriber that falls
// 512 events behind is dropped) it reconnects with Last-Event-ID. Every
// frame must carry the next id: no gap, no repeat.
func (c *client) readStream(ctx context.Context, session string, res *http.Response, want int64) streamOutcome {
	var out streamOutcome
	var last int64
	idPrefix := []byte("id: ")
	for {
		br := bufio.NewReaderSize(res.Body, 64<<10)
		for {
			line, err := br.ReadSlice('\n')
			if err != nil {
				break
			}
			if !bytes.HasPrefix(line, idPrefix) {
				continue
			}
			id, err := strconv.ParseInt(string(bytes.TrimSpace(line[len(idPrefix):])), 10, 64)
			if err != nil || id != last+1 {
				res.Body.Close()
				out.err = fmt.Errorf("frame id %q after %d", line, last)
				return out
			}
			last = id
			out.frames++
			if id == want {
				out.lastAt = time.Now()
				res.Body.Close()
				return out
			}
		}
		res.Body.Close()
		if ctx.Err() != nil {
			out.err = fmt.Errorf("stream: %w after id %d", ctx.Err(), last)
			return out
		}
		out.reconnects++
		var err error
		if res, err = c.openBenchStream(ctx, c.hc, session, last); err != nil {
			out.err = err
			return out
		}
	}
}

// BenchmarkEventThroughput measures events/s through persist + broker +
// SSE: one session, one SSE client over real HTTP, and a producer calling
// EventLog.Append (text_delta events) as fast as it can. One op is 20,000
// events in a fresh session, timed from the first Append until the client
// has read the last frame. append-events/s is the producer's own rate
// (persist + publish); reconnects counts streams the server ended because
// the subscriber fell 512 events behind (the client resumes with
// Last-Event-ID, so nothing is lost, but it is worth knowing).
func BenchmarkEventThroughput(b *testing.B) {
	const events = 20_000
	a := newAppForBench(b)
	c := a.setupAdmin()
	sessions := a.benchSessions(b, b.N)
	payload := agent.TextData{Text: "NGC 1275 is the central galaxy "}
	var total, producing time.Duration
	reconnects := 0
	b.ReportAllocs()
	b.ResetTimer()
	for _, s := range sessions {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		res, err := c.openBenchStream(ctx, c.hc, s, 0)
		if err != nil {
			cancel()
			b.Fatal(err)
		}
		outcome := make(chan streamOutcome, 1)
		go func() { outcome <- c.readStream(ctx, s, res, events) }()
		start := time.Now()
		for range events {
			if _, err := a.events.Append(ctx, s, 1, agent.LeadAgent, agent.KindTextDelta, payload); err != nil {
				cancel()
				b.Fatal(err)
			}
		}
		producing += time.Since(start)
		o := <-outcome
		cancel()
		if o.err != nil {
			b.Fatalf("client: %v (%d frames, %d reconnects)", o.err, o.frames, o.reconnects)
		}
		total += o.lastAt.Sub(start)
		reconnects += o.reconnects
	}
	b.StopTimer()
	n := float64(events * b.N)
	b.ReportMetric(n/total.Seconds(), "events/s")
	b.ReportMetric(n/producing.Seconds(), "append-events/s")
	b.ReportMetric(float64(reconnects)/float64(b.N), "reconnects/op")
}

// memSample is heap and stack in use after a full GC.
type memSample struct {
	heap, stack uint64
	goroutines  int
}

func sampleMem() memSample {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return memSample{heap: m.HeapAlloc, stack: m.StackInuse, goroutines: runtime.NumGoroutine()}
}

// growth is the memory held while some connections are open.
type growth struct {
	heap, stack float64 // bytes
	goroutines  int
}

// measureHeld samples memory, calls open (which returns once every
// connection is established and returns a function closing them all),
// samples again, then closes.
func measureHeld(open func() (closeAll func())) growth {
	before := sampleMem()
	closeAll := open()
	after := sampleMem()
	closeAll()
	return growth{heap: float64(after.heap) - float64(before.heap), stack: float64(after.stack) - float64(before.stack),
		goroutines: after.goroutines - before.goroutines}
}

// benchTransport is an HTTP client transport that keeps k connections to
// one host open at once.
func benchTransport(k int) *http.Transport {
	return &http.Transport{MaxConnsPerHost: 2 * k, MaxIdleConns: 2 * k, MaxIdleConnsPerHost: 2 * k, DisableCompression: true}
}

// bareSSEServer is the baseline for the client's share: a listener whose
// single accept loop reads each request head, answers with the given
// response head and keeps the connection, with no goroutine, buffer or
// request object per connection (only the accepted net.Conn).
func bareSSEServer(b *testing.B, head []byte) (url string, stop func()) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 16<<10)
		end := []byte("\r\n\r\n")
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			n := 0
			for !bytes.Contains(buf[:n], end) && n < len(buf) && err == nil {
				var m int
				m, err = conn.Read(buf[n:])
				n += m
			}
			if err == nil {
				_, err = conn.Write(head)
			}
			if err != nil {
				conn.Close()
				continue
			}
			mu.Lock()
			conns = append(conns, conn)
			mu.Unlock()
		}
	}()
	return "http://" + ln.Addr().String(), func() {
		ln.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	}
}

// openIdle opens k streams, one per URL, with one transport; it waits
// until ready reports true and returns a function closing everything and
// waiting until gone reports true.
func openIdle(b *testing.B, hc *http.Client, urls []string, ready, gone func() bool) func() {
	ctx, cancel := context.WithCancel(context.Background())
	bodies := make([]*http.Response, 0, len(urls))
	closeAll := func() {
		cancel()
		for _, r := range bodies {
			r.Body.Close()
		}
		hc.CloseIdleConnections()
		waitFor(b, "connections to close", gone)
	}
	for _, u := range urls {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		res, err := hc.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			closeAll()
			b.Fatalf("open %s: %v %v", u, err, res)
		}
		bodies = append(bodies, res)
	}
	waitFor(b, "every stream to be established", ready)
	return closeAll
}

func waitFor(b *testing.B, what string, cond func() bool) {
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			b.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// BenchmarkIdleSubscriberMemory opens 500 idle SSE streams to distinct
// sessions over real HTTP and measures how much heap (HeapAlloc after GC)
// and goroutine stack (StackInuse) stay held while they are open.
//
// The client side of the connections lives in this process too, so the
// same 500 connections, through the same kind of client transport, are
// also opened to bareSSEServer, which answers with the very same response
// head but keeps nothing per connection except the accepted net.Conn. That
// figure is client-KB/conn (the client's share, plus that bare net.Conn);
// KB/subscriber = (total − baseline) / 500 is the server-side cost of one
// idle subscriber: net/http connection, echo and session middleware, the
// handler's goroutine, broker subscription, ticker. inprocess-KB/subscriber
// is the raw figure before the subtraction. The heap-/stack- figures split
// KB/subscriber.
func BenchmarkIdleSubscriberMemory(b *testing.B) {
	const k = 500
	a := newAppForBench(b)
	c := a.setupAdmin()
	sessions := a.benchSessions(b, k)
	broker := a.events.Broker()
	appURLs := make([]string, k)
	for i, s := range sessions {
		appURLs[i] = a.url("/api/sessions/" + s + "/events")
	}

	// Warm up (route tables, pools, session cache) and capture the
	// response head the baseline server must send.
	warm := &http.Client{Jar: c.jar, Transport: benchTransport(k)}
	res, err := c.openBenchStream(context.Background(), warm, sessions[0], 0)
	if err != nil {
		b.Fatal(err)
	}
	var head bytes.Buffer
	head.WriteString("HTTP/1.1 200 OK\r\n")
	res.Header.Write(&head)
	head.WriteString("Transfer-Encoding: chunked\r\n\r\n")
	res.Body.Close()
	warm.CloseIdleConnections()
	waitFor(b, "warm-up stream to close", func() bool { return broker.Subscribers() == 0 })
	bareURL, stopBare := bareSSEServer(b, head.Bytes())
	defer stopBare()
	bareURLs := make([]string, k)
	for i := range bareURLs {
		bareURLs[i] = bareURL + "/events/" + strconv.Itoa(i)
	}

	var full, base growth
	b.ResetTimer()
	for range b.N {
		// The baseline: count goroutines of the client's connections (two
		// per connection in net/http's transport) to know they are up.
		hc := &http.Client{Transport: benchTransport(k)}
		g0 := runtime.NumGoroutine()
		g := measureHeld(func() func() {
			return openIdle(b, hc, bareURLs, func() bool { return true },
				func() bool { return runtime.NumGoroutine() <= g0 })
		})
		base.heap, base.stack, base.goroutines = base.heap+g.heap, base.stack+g.stack, base.goroutines+g.goroutines

		hc = &http.Client{Jar: c.jar, Transport: benchTransport(k)}
		g = measureHeld(func() func() {
			return openIdle(b, hc, appURLs, func() bool { return broker.Subscribers() == k },
				func() bool { return broker.Subscribers() == 0 })
		})
		full.heap, full.stack, full.goroutines = full.heap+g.heap, full.stack+g.stack, full.goroutines+g.goroutines
	}
	b.StopTimer()
	per := float64(k * b.N)
	kb := func(x float64) float64 { return x / per / 1024 }
	b.ReportMetric(kb(full.heap+full.stack-base.heap-base.stack), "KB/subscriber")
	b.ReportMetric(kb(full.heap-base.heap), "heap-KB/subscriber")
	b.ReportMetric(kb(full.stack-base.stack), "stack-KB/subscriber")
	b.ReportMetric(float64(full.goroutines-base.goroutines)/per, "goroutines/subscriber")
	b.ReportMetric(kb(base.heap+base.stack), "client-KB/conn")
	b.ReportMetric(kb(full.heap+full.stack), "inprocess-KB/subscriber")
}
