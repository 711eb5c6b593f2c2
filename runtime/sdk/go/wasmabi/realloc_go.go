//go:build wasip1 && !tinygo

package wasmabi

import "unsafe"

// Under Go (wasip1, c-shared) the module must export cabi_realloc itself: the host allocates the memory
// of arguments and of import results through it. Go's collector does not see the addresses the host
// writes into that memory, so each allocation stays pinned here until the glue has copied what it
// needs (ReleasePins).
var pinned [][]uint64

//go:wasmexport cabi_realloc
func cabiRealloc(old, oldSize, align, newSize uint32) uint32 {
	if newSize == 0 {
		return align
	}
	// Go allocates []uint64 8-aligned, the canonical ABI's largest alignment.
	buf := make([]uint64, (newSize+7)/8)
	addr := Addr(unsafe.Pointer(unsafe.SliceData(buf)))
	if old != 0 && oldSize > 0 {
		copy(unsafe.Slice((*byte)(pointer(addr)), newSize), unsafe.Slice((*byte)(pointer(old)), min(oldSize, newSize)))
	}
	pinned = append(pinned, buf)
	return addr
}

// ReleasePins lets the host-written allocations go once their contents were lifted into Go values.
func ReleasePins() {
	clear(pinned)
	pinned = pinned[:0]
}
