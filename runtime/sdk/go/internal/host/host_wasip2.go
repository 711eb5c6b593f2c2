//go:build wasip2

package host

import (
	"errors"
	"unsafe"
)

// stringResult is the canonical layout of result<string, string>: tag byte, then the string at offset 4.
type stringResult struct {
	isErr uint8
	value string
}

// responseABI is the canonical layout of record http-response (28 bytes, 4-aligned).
type responseABI struct {
	status     uint16
	statusText string
	headersPtr *[2]string
	headersLen uint32
	body       string
}

// responseResult is result<http-response, string>; the error string shares the payload's offset.
type responseResult struct {
	isErr uint8
	ok    responseABI
}

func lower(s string) (*byte, uint32) { return unsafe.StringData(s), uint32(len(s)) }

func lift(r *stringResult) (string, error) {
	if r.isErr != 0 {
		return "", errors.New(r.value)
	}
	return r.value, nil
}

//go:wasmimport trellis:app/host@0.1.0 http-fetch
//go:noescape
func wasmimportHTTPFetch(url *byte, urlLen uint32, method *byte, methodLen uint32, headers *[2]string, headersLen uint32, hasBody uint32, body *byte, bodyLen uint32, result *responseResult)

//go:wasmimport trellis:app/host@0.1.0 sql-query
//go:noescape
func wasmimportSQLQuery(conn *byte, connLen uint32, stmt *byte, stmtLen uint32, params *byte, paramsLen uint32, result *stringResult)

//go:wasmimport trellis:app/host@0.1.0 sql-execute
//go:noescape
func wasmimportSQLExecute(conn *byte, connLen uint32, stmt *byte, stmtLen uint32, params *byte, paramsLen uint32, result *stringResult)

//go:wasmimport trellis:app/host@0.1.0 graph-query
//go:noescape
func wasmimportGraphQuery(conn *byte, connLen uint32, query *byte, queryLen uint32, vars *byte, varsLen uint32, result *stringResult)

//go:wasmimport trellis:app/host@0.1.0 graph-mutate
//go:noescape
func wasmimportGraphMutate(conn *byte, connLen uint32, request *byte, requestLen uint32, result *stringResult)

//go:wasmimport trellis:app/host@0.1.0 graph-alter
//go:noescape
func wasmimportGraphAlter(conn *byte, connLen uint32, schema *byte, schemaLen uint32, result *stringResult)

//go:wasmimport trellis:app/host@0.1.0 model-invoke
//go:noescape
func wasmimportModelInvoke(name *byte, nameLen uint32, input *byte, inputLen uint32, result *stringResult)

//go:wasmimport trellis:app/host@0.1.0 log
//go:noescape
func wasmimportLog(level *byte, levelLen uint32, message *byte, messageLen uint32)

//go:wasmimport trellis:app/host@0.1.0 app-secret
//go:noescape
func wasmimportAppSecret(name *byte, nameLen uint32, result *stringResult)

// HTTPFetch calls host.http-fetch; body nil means no body.
func HTTPFetch(url, method string, headers [][2]string, body *string) (Response, error) {
	u, ul := lower(url)
	m, ml := lower(method)
	var hasBody uint32
	var b *byte
	var bl uint32
	if body != nil {
		hasBody = 1
		b, bl = lower(*body)
	}
	var r responseResult
	wasmimportHTTPFetch(u, ul, m, ml, unsafe.SliceData(headers), uint32(len(headers)), hasBody, b, bl, &r)
	if r.isErr != 0 {
		return Response{}, errors.New(*(*string)(unsafe.Pointer(&r.ok)))
	}
	return Response{
		Status:     r.ok.status,
		StatusText: r.ok.statusText,
		Headers:    unsafe.Slice(r.ok.headersPtr, r.ok.headersLen),
		Body:       r.ok.body,
	}, nil
}

func SQLQuery(conn, stmt, params string) (string, error) {
	c, cl := lower(conn)
	s, sl := lower(stmt)
	p, pl := lower(params)
	var r stringResult
	wasmimportSQLQuery(c, cl, s, sl, p, pl, &r)
	return lift(&r)
}

func SQLExecute(conn, stmt, params string) (string, error) {
	c, cl := lower(conn)
	s, sl := lower(stmt)
	p, pl := lower(params)
	var r stringResult
	wasmimportSQLExecute(c, cl, s, sl, p, pl, &r)
	return lift(&r)
}

func GraphQuery(conn, query, vars string) (string, error) {
	c, cl := lower(conn)
	q, ql := lower(query)
	v, vl := lower(vars)
	var r stringResult
	wasmimportGraphQuery(c, cl, q, ql, v, vl, &r)
	return lift(&r)
}

func GraphMutate(conn, request string) (string, error) {
	c, cl := lower(conn)
	q, ql := lower(request)
	var r stringResult
	wasmimportGraphMutate(c, cl, q, ql, &r)
	return lift(&r)
}

func GraphAlter(conn, schema string) (string, error) {
	c, cl := lower(conn)
	s, sl := lower(schema)
	var r stringResult
	wasmimportGraphAlter(c, cl, s, sl, &r)
	return lift(&r)
}

func ModelInvoke(name, input string) (string, error) {
	n, nl := lower(name)
	i, il := lower(input)
	var r stringResult
	wasmimportModelInvoke(n, nl, i, il, &r)
	return lift(&r)
}

func Log(level, message string) {
	l, ll := lower(level)
	m, ml := lower(message)
	wasmimportLog(l, ll, m, ml)
}

func AppSecret(name string) (string, error) {
	n, nl := lower(name)
	var r stringResult
	wasmimportAppSecret(n, nl, &r)
	return lift(&r)
}
