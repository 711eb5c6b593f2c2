//go:build wasip1 || wasip2

package wasmabi

import (
	"fmt"
	"math"
	"unsafe"
)

// Everything a result points at (its return area, string bytes, list buffers) must stay where it is
// until the host has read it: `results` keeps it reachable until the export's post-return function
// (cabi_post_<name>) calls ReleaseResults.
var results []any

// invalid is the first value of the current result that cannot be represented in its WIT type.
var invalid string

// Alloc returns size bytes of zeroed memory aligned to 8 (the canonical ABI's largest alignment), kept
// alive until ReleaseResults.
func Alloc(size uint32) uint32 {
	buf := make([]uint64, max(1, (size+7)/8))
	results = append(results, buf)
	return Addr(unsafe.Pointer(unsafe.SliceData(buf)))
}

// ReleaseResults lets the memory of the last result go; called from the post-return functions.
func ReleaseResults() {
	clear(results)
	results = results[:0]
}

// PutString stores s at a as (ptr, len), keeping its bytes alive until ReleaseResults.
func PutString(a uint32, s string) {
	results = append(results, s)
	PutU32(a, Addr(unsafe.Pointer(unsafe.StringData(s))))
	PutU32(a+4, uint32(len(s)))
}

// PutList stores items at a as (ptr, len): a buffer of len(items) elements of size bytes.
func PutList[T any](a uint32, items []T, size uint32, store func(uint32, T)) {
	base := Alloc(size * uint32(len(items)))
	for i, v := range items {
		store(base+uint32(i)*size, v)
	}
	PutU32(a, base)
	PutU32(a+4, uint32(len(items)))
}

// PutOption stores v at a: discriminant 0 for nil, else 1 and the value at a+payload.
func PutOption[T any](a uint32, v *T, payload uint32, store func(uint32, T)) {
	if v == nil {
		PutU8(a, 0)
		return
	}
	PutU8(a, 1)
	store(a+payload, *v)
}

// Invalid records that a result value does not fit its WIT type; the export answers with an error
// naming it instead of a truncated value.
func Invalid(format string, args ...any) {
	if invalid == "" {
		invalid = fmt.Sprintf(format, args...)
	}
}

// TakeInvalid returns and clears the first recorded Invalid message ("" when the result was valid).
func TakeInvalid() string {
	msg := invalid
	invalid = ""
	return msg
}

// PutInt stores a Go int as s32 (GraphQL Int): ints are 64-bit under Go and 32-bit under TinyGo.
func PutInt(a uint32, v int) {
	if int64(v) < math.MinInt32 || int64(v) > math.MaxInt32 {
		Invalid("%d does not fit in a 32-bit Int (use int64 for larger values)", v)
	}
	PutS32(a, int32(v))
}

// PutUint stores a Go uint as u32 (GraphQL UInt).
func PutUint(a uint32, v uint) {
	if uint64(v) > math.MaxUint32 {
		Invalid("%d does not fit in a 32-bit UInt (use uint64 for larger values)", v)
	}
	PutU32(a, uint32(v))
}

// Err makes the return area ret a result's err case carrying msg: discriminant 1, the string at
// ret+payload (the payload offset of the function's result type).
func Err(ret, payload uint32, msg string) uint32 {
	PutU8(ret, 1)
	PutString(ret+payload, msg)
	return ret
}
