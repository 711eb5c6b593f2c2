// Package host is the Go side of the `trellis:app/host@0.1.0` WIT interface (runtime/wit/host.wit).
//
// Inside an app (GOOS=wasip1 under Go, -target=wasip2 under TinyGo) the functions are the component's
// imports, declared by hand with //go:wasmimport over the canonical ABI (host_wasm.go), so the SDK is an
// ordinary module with no generated code and no dependency. Anywhere else (`go test` on the developer's
// machine) they call the Fake installed by package trellistest, or fail with ErrNotInApp.
package host

import "errors"

// ErrNotInApp is returned when the SDK is used outside an app build without a fake host (see package
// trellistest).
var ErrNotInApp = errors.New("trellis: host functions are only available inside an app built with `trellis build` (in `go test`, install a fake host with trellistest.New)")

// Response is an HTTP response as the host returns it.
type Response struct {
	Status     uint16
	StatusText string
	Headers    [][2]string
	Body       string
}

// Fake answers host calls outside a wasm build. Package trellistest implements it.
type Fake interface {
	HTTPFetch(url, method string, headers [][2]string, body *string) (Response, error)
	SQLQuery(connection, statement, params string) (string, error)
	SQLExecute(connection, statement, params string) (string, error)
	GraphQuery(connection, query, vars string) (string, error)
	GraphMutate(connection, request string) (string, error)
	GraphAlter(connection, schema string) (string, error)
	ModelInvoke(name, input string) (string, error)
	Log(level, message string)
	AppSecret(name string) (string, error)
	JWTClaims() (claims string, ok bool)
}
