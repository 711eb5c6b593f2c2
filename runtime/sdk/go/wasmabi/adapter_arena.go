//go:build wasip1 && !tinygo

package wasmabi

import "unsafe"

// adapterArena is the memory of the WASI preview1 adapter that turns a Go module into a component (jco's
// wasi_snapshot_preview1.reactor.wasm). The adapter allocates its stack and state on its first call,
// which Go's runtime makes before its allocator exists, and Go claims all memory above its data as heap;
// so `trellis build` gives the adapter an allocator of its own (cabi_realloc_adapter) over this array,
// which is Go data no Go code touches. It uses 128 KiB today. Its first 16 bytes ("trellis:adapter!")
// are how the build finds it in the module's data segments.
var adapterArena = [256 << 10]byte{
	't', 'r', 'e', 'l', 'l', 'i', 's', ':', 'a', 'd', 'a', 'p', 't', 'e', 'r', '!',
}

// adapterArenaAddress keeps adapterArena in the linked module (and says where it is, for debugging).
//
//go:wasmexport trellis_adapter_arena
func adapterArenaAddress() uint32 { return Addr(unsafe.Pointer(&adapterArena)) }
