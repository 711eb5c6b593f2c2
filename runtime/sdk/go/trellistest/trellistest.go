//go:build !wasip1 && !wasip2

// Package trellistest runs an app's functions under `go test`, without a wasm host: New installs an
// in-process fake of the host calls (HTTP, SQL, graph, models, logs, secrets) for one test, answering
// with the handlers the test registers.
//
//	func TestGetRandomQuote(t *testing.T) {
//		h := trellistest.New(t)
//		h.HandleHTTP("https://api.example.com/", func(r *trellistest.Request) (*trellistest.Response, error) {
//			return trellistest.JSON(200, map[string]string{"q": "Be curious", "a": "Ada"}), nil
//		})
//		quote, err := GetRandomQuote()
//		...
//	}
//
// A call without a matching handler returns an error naming the handler to register. The fake is
// process-wide, like the host of an app instance: tests that use it must not run in parallel.
package trellistest

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/trellis-dev/trellis/runtime/sdk/go/graph"
	"github.com/trellis-dev/trellis/runtime/sdk/go/internal/host"
	"github.com/trellis-dev/trellis/runtime/sdk/go/sql"
)

// Request is an HTTP request an app function made.
type Request struct {
	URL     string
	Method  string
	Headers [][2]string
	// Body is nil when the request had none.
	Body *string
}

// Header returns the first value of the named header (case-insensitive).
func (r *Request) Header(name string) string {
	for _, h := range r.Headers {
		if strings.EqualFold(h[0], name) {
			return h[1]
		}
	}
	return ""
}

// Response is what an HTTP handler answers.
type Response struct {
	Status  int
	Headers [][2]string
	Body    string
}

// JSON is a response with v encoded as its JSON body.
func JSON(status int, v any) *Response {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("trellistest.JSON: %v", err))
	}
	return &Response{Status: status, Headers: [][2]string{{"content-type", "application/json"}}, Body: string(b)}
}

// LogEntry is one line an app function logged.
type LogEntry struct {
	Level   string
	Message string
}

type httpRoute struct {
	prefix  string
	handler func(*Request) (*Response, error)
}

// Host is the fake host of one test. Its methods may be called from the code under test concurrently.
type Host struct {
	mu        sync.Mutex
	http      []httpRoute
	queries   map[string]func(statement string, params []any) ([]map[string]any, error)
	execs     map[string]func(statement string, params []any) (sql.ExecResult, error)
	graphs    map[string]func(query string, vars map[string]string) (any, error)
	mutations map[string]func(request graph.Request) (graph.Response, error)
	alters    map[string]func(schema string) error
	models    map[string]func(input json.RawMessage) (any, error)
	secrets   map[string]string
	claims    *string
	requests  []Request
	logs      []LogEntry
}

// New installs a fake host for the duration of t.
func New(t testing.TB) *Host {
	t.Helper()
	h := &Host{
		queries:   map[string]func(string, []any) ([]map[string]any, error){},
		execs:     map[string]func(string, []any) (sql.ExecResult, error){},
		graphs:    map[string]func(string, map[string]string) (any, error){},
		mutations: map[string]func(graph.Request) (graph.Response, error){},
		alters:    map[string]func(string) error{},
		models:    map[string]func(json.RawMessage) (any, error){},
		secrets:   map[string]string{},
	}
	t.Cleanup(host.Install(h))
	return h
}

// HandleHTTP answers requests whose URL starts with prefix (the longest matching prefix wins).
func (h *Host) HandleHTTP(prefix string, handler func(*Request) (*Response, error)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.http = append(h.http, httpRoute{prefix, handler})
}

// HandleSQL answers sql.Query/QueryAs on a relationaldb connection.
func (h *Host) HandleSQL(connection string, handler func(statement string, params []any) ([]map[string]any, error)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.queries[connection] = handler
}

// HandleSQLExec answers sql.Execute on a relationaldb connection.
func (h *Host) HandleSQLExec(connection string, handler func(statement string, params []any) (sql.ExecResult, error)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.execs[connection] = handler
}

// HandleGraphQuery answers graph.Query/QueryAs on a graphdb connection; the returned value is the
// query's data (encoded to JSON).
func (h *Host) HandleGraphQuery(connection string, handler func(query string, vars map[string]string) (any, error)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.graphs[connection] = handler
}

// HandleGraphMutate answers graph.Mutate on a graphdb connection.
func (h *Host) HandleGraphMutate(connection string, handler func(request graph.Request) (graph.Response, error)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.mutations[connection] = handler
}

// HandleGraphAlter answers graph.Alter on a graphdb connection.
func (h *Host) HandleGraphAlter(connection string, handler func(schema string) error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.alters[connection] = handler
}

// HandleModel answers models.Invoke/InvokeAs for a model of the manifest; the returned value is the
// model's response body (encoded to JSON).
func (h *Host) HandleModel(name string, handler func(input json.RawMessage) (any, error)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.models[name] = handler
}

// SetJWTClaims makes auth.GetJWTClaims answer claims (encoded as JSON), as if a user's verified JWT had
// authorized the call; nil makes it answer none again.
func (h *Host) SetJWTClaims(claims any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if claims == nil {
		h.claims = nil
		return
	}
	b, err := json.Marshal(claims)
	if err != nil {
		panic(fmt.Sprintf("trellistest.SetJWTClaims: %v", err))
	}
	text := string(b)
	h.claims = &text
}

// SetSecret makes secrets.Get(name) return value.
func (h *Host) SetSecret(name, value string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.secrets[name] = value
}

// Requests returns the HTTP requests made so far.
func (h *Host) Requests() []Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Request(nil), h.requests...)
}

// Logs returns the lines logged so far.
func (h *Host) Logs() []LogEntry {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]LogEntry(nil), h.logs...)
}

func missing(kind, name, register string) error {
	return fmt.Errorf("trellistest: no %s handler for %s; register one with Host.%s", kind, name, register)
}

// The host.Fake implementation.

func (h *Host) HTTPFetch(url, method string, headers [][2]string, body *string) (host.Response, error) {
	h.mu.Lock()
	req := Request{URL: url, Method: method, Headers: headers, Body: body}
	h.requests = append(h.requests, req)
	var handler func(*Request) (*Response, error)
	best := -1
	for _, r := range h.http {
		if strings.HasPrefix(url, r.prefix) && len(r.prefix) > best {
			handler, best = r.handler, len(r.prefix)
		}
	}
	h.mu.Unlock()
	if handler == nil {
		return host.Response{}, missing("HTTP", method+" "+url, "HandleHTTP")
	}
	res, err := handler(&req)
	if err != nil {
		return host.Response{}, err
	}
	status := res.Status
	if status == 0 {
		status = 200
	}
	return host.Response{Status: uint16(status), Headers: res.Headers, Body: res.Body}, nil
}

func decodeParams(params string) ([]any, error) {
	var out []any
	if params == "" {
		return out, nil
	}
	err := json.Unmarshal([]byte(params), &out)
	return out, err
}

func encode(v any, err error) (string, error) {
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(v)
	return string(b), err
}

func (h *Host) SQLQuery(connection, statement, params string) (string, error) {
	h.mu.Lock()
	handler := h.queries[connection]
	h.mu.Unlock()
	if handler == nil {
		return "", missing("SQL query", "connection "+connection, "HandleSQL")
	}
	p, err := decodeParams(params)
	if err != nil {
		return "", err
	}
	rows, err := handler(statement, p)
	if rows == nil {
		rows = []map[string]any{}
	}
	return encode(rows, err)
}

func (h *Host) SQLExecute(connection, statement, params string) (string, error) {
	h.mu.Lock()
	handler := h.execs[connection]
	h.mu.Unlock()
	if handler == nil {
		return "", missing("SQL exec", "connection "+connection, "HandleSQLExec")
	}
	p, err := decodeParams(params)
	if err != nil {
		return "", err
	}
	return encode(handler(statement, p))
}

func (h *Host) GraphQuery(connection, query, vars string) (string, error) {
	h.mu.Lock()
	handler := h.graphs[connection]
	h.mu.Unlock()
	if handler == nil {
		return "", missing("graph query", "connection "+connection, "HandleGraphQuery")
	}
	v := map[string]string{}
	if err := json.Unmarshal([]byte(vars), &v); err != nil {
		return "", err
	}
	return encode(handler(query, v))
}

func (h *Host) GraphMutate(connection, request string) (string, error) {
	h.mu.Lock()
	handler := h.mutations[connection]
	h.mu.Unlock()
	if handler == nil {
		return "", missing("graph mutation", "connection "+connection, "HandleGraphMutate")
	}
	var req graph.Request
	if err := json.Unmarshal([]byte(request), &req); err != nil {
		return "", err
	}
	return encode(handler(req))
}

func (h *Host) GraphAlter(connection, schema string) (string, error) {
	h.mu.Lock()
	handler := h.alters[connection]
	h.mu.Unlock()
	if handler == nil {
		return "", missing("graph alter", "connection "+connection, "HandleGraphAlter")
	}
	if err := handler(schema); err != nil {
		return "", err
	}
	return `{"code":"Success","message":"Done"}`, nil
}

func (h *Host) ModelInvoke(name, input string) (string, error) {
	h.mu.Lock()
	handler := h.models[name]
	h.mu.Unlock()
	if handler == nil {
		return "", missing("model", name, "HandleModel")
	}
	return encode(handler(json.RawMessage(input)))
}

func (h *Host) Log(level, message string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.logs = append(h.logs, LogEntry{Level: level, Message: message})
}

func (h *Host) AppSecret(name string) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	value, ok := h.secrets[name]
	if !ok {
		return "", fmt.Errorf("app secret %s is not set (set it in the test with Host.SetSecret)", name)
	}
	return value, nil
}

func (h *Host) JWTClaims() (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.claims == nil {
		return "", false
	}
	return *h.claims, true
}
