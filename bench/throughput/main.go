// A light MCP load client for bench/throughput.sh: it speaks MCP Streamable
// HTTP directly (JSON-RPC 2.0 over POST, answers as JSON or as an SSE
// stream), one session per simulated client, standard library only, so that
// the client costs little of the two cores it shares with the server and
// OpenSearch.
//
//	go run . -url http://127.0.0.1:PORT/mcp -calls calls.jsonl -mode seq -n 300
//	go run . -url http://127.0.0.1:PORT/mcp -calls calls.jsonl -mode load -clients 32 -duration 30s
//
// calls.jsonl holds one call a line: {"tool": "...", "args": {...}}. Mode
// seq: one client makes -n calls one after the other, in file order
// (wrapping). Mode load: -clients clients, each with its own session opened
// before the clock starts, call without pause for -duration, client i
// starting at call i*len/clients. A call counts as an error when the
// transport fails, the HTTP status is not 200, the answer is not a JSON-RPC
// result for its id, the result has isError: true, or its text holds the
// -reject string. Latencies are kept for answered calls (isError ones too).
//
// Prints one JSON object on stdout: requests, errors, elapsed_s, req_per_s,
// p50_ms, p95_ms, p99_ms, max_ms, mean_ms, client_cpu_s, first_errors.
// Only loopback URLs are accepted.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

const protocolVersion = "2025-06-18"

type call struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
}

type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

type toolResult struct {
	IsError bool `json:"isError"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

type session struct {
	http    *http.Client
	url     string
	id      string
	version string
	nextID  int64
	timeout time.Duration
}

// post sends one JSON-RPC message; for a request (id > 0) it returns the
// response with that id, read from a JSON body or an SSE stream.
func (s *session) post(method string, params any, id int64) (*rpcMessage, http.Header, error) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	if id > 0 {
		msg["id"] = id
	}
	body, err := json.Marshal(msg)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
	}
	if s.version != "" {
		req.Header.Set("MCP-Protocol-Version", s.version)
	}
	resp, err := s.http.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20)) // keep the connection reusable
		resp.Body.Close()
	}()
	if id <= 0 {
		if resp.StatusCode/100 != 2 {
			return nil, resp.Header, fmt.Errorf("%s: HTTP %d", method, resp.StatusCode)
		}
		return nil, resp.Header, nil
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return nil, resp.Header, fmt.Errorf("%s: HTTP %d: %s", method, resp.StatusCode, strings.TrimSpace(string(b)))
	}
	want := fmt.Sprint(id)
	ct := resp.Header.Get("Content-Type")
	if strings.HasPrefix(ct, "text/event-stream") {
		m, err := readSSE(resp.Body, want)
		return m, resp.Header, err
	}
	var m rpcMessage
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		return nil, resp.Header, fmt.Errorf("%s: bad JSON answer (%s): %v", method, ct, err)
	}
	if string(m.ID) != want {
		return nil, resp.Header, fmt.Errorf("%s: answer for id %s, not %s", method, m.ID, want)
	}
	return &m, resp.Header, nil
}

// readSSE reads events until one whose data is the JSON-RPC response with
// the given id (priming events and notifications are skipped).
func readSSE(r io.Reader, want string) (*rpcMessage, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var data []string
	flush := func() (*rpcMessage, error) {
		if len(data) == 0 {
			return nil, nil
		}
		joined := strings.Join(data, "\n")
		data = data[:0]
		if strings.TrimSpace(joined) == "" {
			return nil, nil
		}
		var m rpcMessage
		if err := json.Unmarshal([]byte(joined), &m); err != nil {
			return nil, fmt.Errorf("bad SSE data: %v", err)
		}
		if string(m.ID) == want && (m.Result != nil || m.Error != nil) {
			return &m, nil
		}
		return nil, nil
	}
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			if m, err := flush(); m != nil || err != nil {
				return m, err
			}
			continue
		}
		if strings.HasPrefix(line, "data:") {
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	if m, err := flush(); m != nil || err != nil {
		return m, err
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("SSE stream: %v", err)
	}
	return nil, errors.New("SSE stream ended without the response")
}

func open(client *http.Client, u string, timeout time.Duration, name string) (*session, error) {
	s := &session{http: client, url: u, timeout: timeout}
	s.nextID++
	init := map[string]any{
		"protocolVersion": protocolVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": name, "version": "1.0"},
	}
	m, h, err := s.post("initialize", init, s.nextID)
	if err != nil {
		return nil, fmt.Errorf("initialize: %v", err)
	}
	if m.Error != nil {
		return nil, fmt.Errorf("initialize: %s", m.Error.Message)
	}
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(m.Result, &r)
	s.id = h.Get("Mcp-Session-Id")
	s.version = r.ProtocolVersion
	if s.version == "" {
		s.version = protocolVersion
	}
	if _, _, err := s.post("notifications/initialized", nil, 0); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *session) close() {
	if s.id == "" {
		return
	}
	req, err := http.NewRequest(http.MethodDelete, s.url, nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", s.id)
	req.Header.Set("MCP-Protocol-Version", s.version)
	if resp, err := s.http.Do(req); err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// callTool makes one tools/call; it returns the latency (NaN when nothing
// was answered) and the error, if any.
func (s *session) callTool(c call, reject string) (float64, error) {
	s.nextID++
	t := time.Now()
	m, _, err := s.post("tools/call", map[string]any{"name": c.Tool, "arguments": c.Args}, s.nextID)
	ms := float64(time.Since(t).Microseconds()) / 1000
	if err != nil {
		return math.NaN(), err
	}
	if m.Error != nil {
		return ms, fmt.Errorf("JSON-RPC error %d: %s", m.Error.Code, m.Error.Message)
	}
	var r toolResult
	if err := json.Unmarshal(m.Result, &r); err != nil {
		return ms, fmt.Errorf("bad result: %v", err)
	}
	text := ""
	if len(r.Content) > 0 {
		text = r.Content[0].Text
	}
	if r.IsError {
		return ms, fmt.Errorf("isError: %.200s", text)
	}
	if reject != "" {
		for _, x := range r.Content {
			if strings.Contains(x.Text, reject) {
				return ms, fmt.Errorf("answer holds %q: %.200s", reject, x.Text)
			}
		}
	}
	return ms, nil
}

type stats struct {
	mu        sync.Mutex
	latencies []float64
	errors    int
	first     []string
}

func (st *stats) add(who string, c call, ms float64, err error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !math.IsNaN(ms) {
		st.latencies = append(st.latencies, ms)
	}
	if err != nil {
		st.errors++
		if len(st.first) < 10 {
			args, _ := json.Marshal(c.Args)
			st.first = append(st.first, fmt.Sprintf("%s %s %s: %v", who, c.Tool, args, err))
		}
	}
}

// pct is the p-th percentile, nearest rank (as bench/benchlib.py's pct).
func pct(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	i := int(math.Round(p / 100 * float64(len(sorted)-1)))
	return sorted[i]
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return math.NaN()
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

func round(x float64, digits int) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	f := math.Pow(10, float64(digits))
	return math.Round(x*f) / f
}

func loadCalls(path string) ([]call, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var calls []call
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var c call
		if err := json.Unmarshal([]byte(line), &c); err != nil || c.Tool == "" {
			return nil, fmt.Errorf("%s:%d: not a {\"tool\", \"args\"} line", path, n)
		}
		calls = append(calls, c)
	}
	if len(calls) == 0 {
		return nil, fmt.Errorf("%s: no calls", path)
	}
	return calls, sc.Err()
}

func main() {
	u := flag.String("url", "", "MCP endpoint, e.g. http://127.0.0.1:9020/mcp (loopback only)")
	callsPath := flag.String("calls", "", "JSONL file of {\"tool\", \"args\"} calls")
	mode := flag.String("mode", "seq", "seq (one client, -n calls) or load (-clients clients for -duration)")
	n := flag.Int("n", 0, "seq: number of calls (default: every call once)")
	clients := flag.Int("clients", 32, "load: concurrent clients (1..256)")
	duration := flag.Duration("duration", 30*time.Second, "load: how long the clients call (1s..600s)")
	timeout := flag.Duration("timeout", 30*time.Second, "per request")
	reject := flag.String("reject", "", "an answer holding this text counts as an error")
	flag.Parse()

	fatal := func(format string, a ...any) {
		fmt.Fprintf(os.Stderr, "throughput: "+format+"\n", a...)
		os.Exit(2)
	}
	pu, err := url.Parse(*u)
	if err != nil || pu.Hostname() == "" {
		fatal("-url: need an http://HOST:PORT/mcp URL")
	}
	if ip := net.ParseIP(pu.Hostname()); pu.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fatal("refusing %s: loopback only", *u)
	}
	calls, err := loadCalls(*callsPath)
	if err != nil {
		fatal("%v", err)
	}
	if *clients < 1 || *clients > 256 {
		fatal("-clients must be 1..256")
	}
	if *duration < time.Second || *duration > 600*time.Second {
		fatal("-duration must be 1s..600s")
	}

	transport := &http.Transport{
		MaxIdleConns:        512,
		MaxIdleConnsPerHost: 512,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
	}
	client := &http.Client{Transport: transport}
	st := &stats{}
	cpu0 := cpuSeconds()
	var start time.Time
	var elapsed time.Duration
	nClients := 1

	switch *mode {
	case "seq":
		count := *n
		if count <= 0 {
			count = len(calls)
		}
		s, err := open(client, *u, *timeout, "throughput-seq")
		if err != nil {
			fatal("%v", err)
		}
		start = time.Now()
		for i := 0; i < count; i++ {
			c := calls[i%len(calls)]
			ms, err := s.callTool(c, *reject)
			st.add("client 0", c, ms, err)
		}
		elapsed = time.Since(start)
		s.close()
	case "load":
		nClients = *clients
		sessions := make([]*session, nClients)
		for i := range sessions {
			s, err := open(client, *u, *timeout, fmt.Sprintf("throughput-%d", i))
			if err != nil {
				fatal("client %d: %v", i, err)
			}
			sessions[i] = s
		}
		var wg sync.WaitGroup
		begin := make(chan struct{})
		for i, s := range sessions {
			wg.Add(1)
			go func(i int, s *session) {
				defer wg.Done()
				<-begin
				deadline := start.Add(*duration)
				who := fmt.Sprintf("client %d", i)
				for k := i * len(calls) / nClients; time.Now().Before(deadline); k++ {
					c := calls[k%len(calls)]
					ms, err := s.callTool(c, *reject)
					st.add(who, c, ms, err)
				}
			}(i, s)
		}
		start = time.Now()
		close(begin)
		wg.Wait()
		elapsed = time.Since(start)
		for _, s := range sessions {
			s.close()
		}
	default:
		fatal("-mode must be seq or load")
	}

	lat := append([]float64(nil), st.latencies...)
	sort.Float64s(lat)
	requests := len(lat)
	mean := math.NaN()
	if requests > 0 {
		sum := 0.0
		for _, x := range lat {
			sum += x
		}
		mean = sum / float64(requests)
	}
	maxMs := math.NaN()
	if requests > 0 {
		maxMs = lat[requests-1]
	}
	out := map[string]any{
		"mode":         *mode,
		"clients":      nClients,
		"requests":     requests,
		"errors":       st.errors,
		"elapsed_s":    round(elapsed.Seconds(), 3),
		"req_per_s":    round(float64(requests)/elapsed.Seconds(), 1),
		"p50_ms":       round(pct(lat, 50), 2),
		"p95_ms":       round(pct(lat, 95), 2),
		"p99_ms":       round(pct(lat, 99), 2),
		"max_ms":       round(maxMs, 2),
		"mean_ms":      round(mean, 2),
		"client_cpu_s": round(cpuSeconds()-cpu0, 2),
		"first_errors": st.first,
	}
	if st.first == nil {
		out["first_errors"] = []string{}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fatal("%v", err)
	}
}
