// Package http makes HTTP requests through the app's declared `http` connections: the URL must start
// with a connection's baseUrl (or equal its endpoint), and the connection's headers (with secrets) are
// added by the host, so credentials never enter the app.
package http

import (
	"encoding/json"

	"github.com/trellis-dev/trellis/runtime/sdk/go/internal/host"
)

// Options are optional request settings; the zero value is a GET without a body.
type Options struct {
	Method  string
	Headers [][2]string
	// Body is sent when non-nil.
	Body *string
}

// Response is the full response; non-2xx statuses are returned, not errors.
type Response struct {
	Status     int
	StatusText string
	Headers    [][2]string
	Body       string
}

// OK reports a 2xx status.
func (r *Response) OK() bool { return r.Status >= 200 && r.Status < 300 }

// Header returns the first value of the named header (case-sensitive as the host reports it, lowercased).
func (r *Response) Header(name string) string {
	for _, h := range r.Headers {
		if h[0] == name {
			return h[1]
		}
	}
	return ""
}

// JSON decodes the body into v.
func (r *Response) JSON(v any) error { return json.Unmarshal([]byte(r.Body), v) }

// Fetch performs the request. An error means the request could not be made (no matching connection,
// network failure), not a non-2xx status.
func Fetch(url string, opts *Options) (*Response, error) {
	method, headers, body := "GET", [][2]string(nil), (*string)(nil)
	if opts != nil {
		if opts.Method != "" {
			method = opts.Method
		}
		headers, body = opts.Headers, opts.Body
	}
	r, err := host.HTTPFetch(url, method, headers, body)
	if err != nil {
		return nil, err
	}
	return &Response{Status: int(r.Status), StatusText: r.StatusText, Headers: r.Headers, Body: r.Body}, nil
}

// Get fetches url and returns the response.
func Get(url string) (*Response, error) { return Fetch(url, nil) }

// PostJSON sends v as a JSON body.
func PostJSON(url string, v any) (*Response, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	body := string(b)
	return Fetch(url, &Options{Method: "POST", Headers: [][2]string{{"content-type", "application/json"}}, Body: &body})
}
