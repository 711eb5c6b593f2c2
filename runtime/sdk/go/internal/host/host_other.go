//go:build !wasip2

package host

import (
	"fmt"
	"os"
)

func HTTPFetch(url, method string, headers [][2]string, body *string) (Response, error) {
	return Response{}, ErrNotInApp
}
func SQLQuery(conn, stmt, params string) (string, error)   { return "", ErrNotInApp }
func SQLExecute(conn, stmt, params string) (string, error) { return "", ErrNotInApp }
func GraphQuery(conn, query, vars string) (string, error)  { return "", ErrNotInApp }
func GraphMutate(conn, request string) (string, error)     { return "", ErrNotInApp }
func GraphAlter(conn, schema string) (string, error)       { return "", ErrNotInApp }
func ModelInvoke(name, input string) (string, error)       { return "", ErrNotInApp }
func AppSecret(name string) (string, error)                { return "", ErrNotInApp }

// Log writes to stderr outside an app so `go test` output still shows what the code logged.
func Log(level, message string) { fmt.Fprintf(os.Stderr, "%s: %s\n", level, message) }
