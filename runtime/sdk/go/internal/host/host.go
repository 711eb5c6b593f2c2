// Package host is the Go side of the `trellis:app/host@0.1.0` WIT interface (runtime/wit/host.wit).
//
// The imports are declared by hand with //go:wasmimport rather than through wit-bindgen-go so the SDK is
// an ordinary module with no generated code and no dependency: TinyGo lays out Go strings ({ptr, len}),
// and the small structs below exactly like the component model's canonical ABI on wasm32, which is also
// what wit-bindgen-go's generated code relies on. Outside a wasip2 build the functions return
// ErrNotInApp, so packages using the SDK still compile and test with the regular Go toolchain.
package host

import "errors"

// ErrNotInApp is returned when the SDK is used outside a Trellis app build (e.g. in `go test`).
var ErrNotInApp = errors.New("trellis: host functions are only available inside an app built with `trellis build`")

// Response is an HTTP response as the host returns it.
type Response struct {
	Status     uint16
	StatusText string
	Headers    [][2]string
	Body       string
}
