//go:build tinygo && (wasip1 || wasip2)

package wasmabi

// TinyGo's runtime exports cabi_realloc and keeps what the host allocated alive for the current call.
func ReleasePins() {}
