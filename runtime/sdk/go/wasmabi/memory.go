//go:build wasip1 || wasip2

package wasmabi

import (
	"math"
	"unsafe"
)

// Addr is the linear-memory address of p.
func Addr(p unsafe.Pointer) uint32 { return uint32(uintptr(p)) }

// pointer turns an address into a Go pointer. The memory behind it is Go memory kept alive elsewhere
// (pinned allocations, return areas, live strings).
func pointer(addr uint32) unsafe.Pointer { return unsafe.Add(nil, addr) }

func Bool(a uint32) bool         { return *(*uint8)(pointer(a)) != 0 }
func U8(a uint32) uint8          { return *(*uint8)(pointer(a)) }
func S8(a uint32) int8           { return *(*int8)(pointer(a)) }
func U16(a uint32) uint16        { return *(*uint16)(pointer(a)) }
func S16(a uint32) int16         { return *(*int16)(pointer(a)) }
func U32(a uint32) uint32        { return *(*uint32)(pointer(a)) }
func S32(a uint32) int32         { return *(*int32)(pointer(a)) }
func U64(a uint32) uint64        { return *(*uint64)(pointer(a)) }
func S64(a uint32) int64         { return *(*int64)(pointer(a)) }
func F32(a uint32) float32       { return math.Float32frombits(U32(a)) }
func F64(a uint32) float64       { return math.Float64frombits(U64(a)) }
func PutBool(a uint32, v bool)   { *(*uint8)(pointer(a)) = boolByte(v) }
func PutU8(a uint32, v uint8)    { *(*uint8)(pointer(a)) = v }
func PutS8(a uint32, v int8)     { *(*int8)(pointer(a)) = v }
func PutU16(a uint32, v uint16)  { *(*uint16)(pointer(a)) = v }
func PutS16(a uint32, v int16)   { *(*int16)(pointer(a)) = v }
func PutU32(a uint32, v uint32)  { *(*uint32)(pointer(a)) = v }
func PutS32(a uint32, v int32)   { *(*int32)(pointer(a)) = v }
func PutU64(a uint32, v uint64)  { *(*uint64)(pointer(a)) = v }
func PutS64(a uint32, v int64)   { *(*int64)(pointer(a)) = v }
func PutF32(a uint32, v float32) { PutU32(a, math.Float32bits(v)) }
func PutF64(a uint32, v float64) { PutU64(a, math.Float64bits(v)) }
func boolByte(v bool) uint8 {
	if v {
		return 1
	}
	return 0
}

// LiftString copies the n bytes at ptr into a Go string. Copying (instead of aliasing host-written
// memory) keeps the value valid whatever the allocator does with the argument memory afterwards.
func LiftString(ptr, n uint32) string {
	if n == 0 {
		return ""
	}
	return string(unsafe.Slice((*byte)(pointer(ptr)), n))
}

// String reads a string stored at a as (ptr, len).
func String(a uint32) string { return LiftString(U32(a), U32(a+4)) }

// StringData is the pointer and length of s for passing it to an import. The caller keeps s alive
// for the duration of the call.
func StringData(s string) (unsafe.Pointer, uint32) {
	return unsafe.Pointer(unsafe.StringData(s)), uint32(len(s))
}

// StringAddr is the address and length of s for storing it in memory the host reads. The caller
// keeps s alive until the host has read it.
func StringAddr(s string) (uint32, uint32) {
	return Addr(unsafe.Pointer(unsafe.StringData(s))), uint32(len(s))
}

// LiftList builds a slice from n elements of size bytes at ptr, reading each with load.
func LiftList[T any](ptr, n, size uint32, load func(uint32) T) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = load(ptr + uint32(i)*size)
	}
	return out
}

// List reads a list stored at a as (ptr, len).
func List[T any](a, size uint32, load func(uint32) T) []T {
	return LiftList(U32(a), U32(a+4), size, load)
}

// Option reads an option stored at a: a discriminant byte, then the payload at a+payload.
func Option[T any](a, payload uint32, load func(uint32) T) *T {
	if U8(a) == 0 {
		return nil
	}
	v := load(a + payload)
	return &v
}
