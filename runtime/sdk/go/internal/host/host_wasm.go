//go:build wasip1 || wasip2

package host

import (
	"errors"
	"runtime"
	"unsafe"

	"github.com/trellis-dev/trellis/runtime/sdk/go/wasmabi"
)

// The imports' core signatures follow the canonical ABI: a string or list is (pointer, length), an
// option is a discriminant then its payload, and a result is written by the host into a return area
// whose address is the last parameter. Pointers are passed as unsafe.Pointer (32-bit in wasm) and the
// return areas are heap-allocated (the parameters escape), so they cannot move if the host re-enters
// the module through cabi_realloc during the call.

//go:wasmimport trellis:app/host@0.1.0 http-fetch
func wasmimportHTTPFetch(url unsafe.Pointer, urlLen uint32, method unsafe.Pointer, methodLen uint32, headers unsafe.Pointer, headersLen uint32, hasBody uint32, body unsafe.Pointer, bodyLen uint32, result unsafe.Pointer)

//go:wasmimport trellis:app/host@0.1.0 sql-query
func wasmimportSQLQuery(connection unsafe.Pointer, connectionLen uint32, statement unsafe.Pointer, statementLen uint32, params unsafe.Pointer, paramsLen uint32, result unsafe.Pointer)

//go:wasmimport trellis:app/host@0.1.0 sql-execute
func wasmimportSQLExecute(connection unsafe.Pointer, connectionLen uint32, statement unsafe.Pointer, statementLen uint32, params unsafe.Pointer, paramsLen uint32, result unsafe.Pointer)

//go:wasmimport trellis:app/host@0.1.0 graph-query
func wasmimportGraphQuery(connection unsafe.Pointer, connectionLen uint32, query unsafe.Pointer, queryLen uint32, vars unsafe.Pointer, varsLen uint32, result unsafe.Pointer)

//go:wasmimport trellis:app/host@0.1.0 graph-mutate
func wasmimportGraphMutate(connection unsafe.Pointer, connectionLen uint32, request unsafe.Pointer, requestLen uint32, result unsafe.Pointer)

//go:wasmimport trellis:app/host@0.1.0 graph-alter
func wasmimportGraphAlter(connection unsafe.Pointer, connectionLen uint32, schema unsafe.Pointer, schemaLen uint32, result unsafe.Pointer)

//go:wasmimport trellis:app/host@0.1.0 model-invoke
func wasmimportModelInvoke(name unsafe.Pointer, nameLen uint32, input unsafe.Pointer, inputLen uint32, result unsafe.Pointer)

//go:wasmimport trellis:app/host@0.1.0 log
func wasmimportLog(level unsafe.Pointer, levelLen uint32, message unsafe.Pointer, messageLen uint32)

//go:wasmimport trellis:app/host@0.1.0 app-secret
func wasmimportAppSecret(name unsafe.Pointer, nameLen uint32, result unsafe.Pointer)

//go:wasmimport trellis:app/host@0.1.0 jwt-claims
func wasmimportJWTClaims(result unsafe.Pointer)

// returnArea is a heap-allocated, 8-aligned area for an import's result.
func returnArea(words int) (unsafe.Pointer, uint32) {
	buf := make([]uint64, words)
	p := unsafe.Pointer(unsafe.SliceData(buf))
	return p, wasmabi.Addr(p)
}

// liftDone ends the lifting of an import's result: the host-written allocations can go, and the
// return area stayed alive until here.
func liftDone(area unsafe.Pointer) {
	wasmabi.ReleasePins()
	runtime.KeepAlive(area)
}

// liftStringResult reads result<string, string> (discriminant byte, then the string at offset 4).
func liftStringResult(area unsafe.Pointer, ret uint32) (string, error) {
	defer liftDone(area)
	if wasmabi.U8(ret) != 0 {
		return "", errors.New(wasmabi.String(ret + 4))
	}
	return wasmabi.String(ret + 4), nil
}

// HTTPFetch calls host.http-fetch; body nil means no body.
func HTTPFetch(url, method string, headers [][2]string, body *string) (Response, error) {
	// list<tuple<string, string>>: 16 bytes per header (two (ptr, len) pairs).
	pairs := make([]uint32, 4*len(headers))
	for i, h := range headers {
		pairs[4*i], pairs[4*i+1] = wasmabi.StringAddr(h[0])
		pairs[4*i+2], pairs[4*i+3] = wasmabi.StringAddr(h[1])
	}
	var hasBody uint32
	var b unsafe.Pointer
	var bl uint32
	if body != nil {
		hasBody = 1
		b, bl = wasmabi.StringData(*body)
	}
	u, ul := wasmabi.StringData(url)
	m, ml := wasmabi.StringData(method)
	// result<http-response, string>: discriminant, then at offset 4 the record (status u16 @4,
	// status-text @8, headers @16, body @24) or the error string.
	area, ret := returnArea(4)
	wasmimportHTTPFetch(u, ul, m, ml, unsafe.Pointer(unsafe.SliceData(pairs)), uint32(len(headers)), hasBody, b, bl, area)
	runtime.KeepAlive(headers)
	runtime.KeepAlive(body)
	defer liftDone(area)
	if wasmabi.U8(ret) != 0 {
		return Response{}, errors.New(wasmabi.String(ret + 4))
	}
	return Response{
		Status:     wasmabi.U16(ret + 4),
		StatusText: wasmabi.String(ret + 8),
		Headers: wasmabi.List(ret+16, 16, func(a uint32) [2]string {
			return [2]string{wasmabi.String(a), wasmabi.String(a + 8)}
		}),
		Body: wasmabi.String(ret + 24),
	}, nil
}

func SQLQuery(connection, statement, params string) (string, error) {
	c, cl := wasmabi.StringData(connection)
	s, sl := wasmabi.StringData(statement)
	p, pl := wasmabi.StringData(params)
	area, ret := returnArea(2)
	wasmimportSQLQuery(c, cl, s, sl, p, pl, area)
	return liftStringResult(area, ret)
}

func SQLExecute(connection, statement, params string) (string, error) {
	c, cl := wasmabi.StringData(connection)
	s, sl := wasmabi.StringData(statement)
	p, pl := wasmabi.StringData(params)
	area, ret := returnArea(2)
	wasmimportSQLExecute(c, cl, s, sl, p, pl, area)
	return liftStringResult(area, ret)
}

func GraphQuery(connection, query, vars string) (string, error) {
	c, cl := wasmabi.StringData(connection)
	q, ql := wasmabi.StringData(query)
	v, vl := wasmabi.StringData(vars)
	area, ret := returnArea(2)
	wasmimportGraphQuery(c, cl, q, ql, v, vl, area)
	return liftStringResult(area, ret)
}

func GraphMutate(connection, request string) (string, error) {
	c, cl := wasmabi.StringData(connection)
	r, rl := wasmabi.StringData(request)
	area, ret := returnArea(2)
	wasmimportGraphMutate(c, cl, r, rl, area)
	return liftStringResult(area, ret)
}

func GraphAlter(connection, schema string) (string, error) {
	c, cl := wasmabi.StringData(connection)
	s, sl := wasmabi.StringData(schema)
	area, ret := returnArea(2)
	wasmimportGraphAlter(c, cl, s, sl, area)
	return liftStringResult(area, ret)
}

func ModelInvoke(name, input string) (string, error) {
	n, nl := wasmabi.StringData(name)
	i, il := wasmabi.StringData(input)
	area, ret := returnArea(2)
	wasmimportModelInvoke(n, nl, i, il, area)
	return liftStringResult(area, ret)
}

func Log(level, message string) {
	l, ll := wasmabi.StringData(level)
	m, ml := wasmabi.StringData(message)
	wasmimportLog(l, ll, m, ml)
}

func AppSecret(name string) (string, error) {
	n, nl := wasmabi.StringData(name)
	area, ret := returnArea(2)
	wasmimportAppSecret(n, nl, area)
	return liftStringResult(area, ret)
}

// JWTClaims calls host.jwt-claims: the call's verified JWT claims as JSON, ok false when it has none.
func JWTClaims() (claims string, ok bool) {
	// option<string>: discriminant byte, then the string at offset 4.
	area, ret := returnArea(2)
	wasmimportJWTClaims(area)
	defer liftDone(area)
	if wasmabi.U8(ret) == 0 {
		return "", false
	}
	return wasmabi.String(ret + 4), true
}
