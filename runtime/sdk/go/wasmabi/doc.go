// Package wasmabi is the component model's canonical ABI for Trellis apps: loads and stores of WIT
// values in linear memory, the return areas of exported functions and, under Go ≥ 1.24, the
// `cabi_realloc` export the host allocates argument memory with. The code `trellis build` generates
// (trellis_exports_gen.go) and the SDK's host imports use it; app code does not need it.
//
// The same source builds with TinyGo (-target=wasip2, whose runtime exports cabi_realloc) and with
// Go (GOOS=wasip1 -buildmode=c-shared). Addresses are uint32 (wasm32) under both compilers; Go's own
// pointers are 64-bit wide on GOARCH=wasm, so no Go pointer or string header is ever written to
// memory the host reads: every pointer and length is stored as a uint32.
package wasmabi
