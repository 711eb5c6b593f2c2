//go:build wasip1 || wasip2

package wasmabi

import "time"

// A time.Time crosses the ABI as the WIT record `timestamp { seconds: s64, nanoseconds: u32 }` (16
// bytes, 8-aligned), which the runtime shows as the GraphQL scalar Timestamp (RFC 3339).

// LiftTime is the flat form: seconds and nanoseconds since the Unix epoch.
func LiftTime(seconds uint64, nanoseconds uint32) time.Time {
	return time.Unix(int64(seconds), int64(nanoseconds)).UTC()
}

// Time reads a timestamp stored at a.
func Time(a uint32) time.Time { return LiftTime(U64(a), U32(a+8)) }

// PutTime stores t at a.
func PutTime(a uint32, t time.Time) {
	PutS64(a, t.Unix())
	PutU32(a+8, uint32(t.Nanosecond()))
}
