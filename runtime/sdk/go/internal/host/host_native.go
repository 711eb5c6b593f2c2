//go:build !wasip1 && !wasip2

package host

import (
	"fmt"
	"os"
	"sync"
)

var (
	mu      sync.Mutex
	current Fake
)

// Install makes f answer every host call until the returned function restores the previous one.
func Install(f Fake) (restore func()) {
	mu.Lock()
	defer mu.Unlock()
	previous := current
	current = f
	return func() {
		mu.Lock()
		defer mu.Unlock()
		current = previous
	}
}

func fake() Fake {
	mu.Lock()
	defer mu.Unlock()
	return current
}

func HTTPFetch(url, method string, headers [][2]string, body *string) (Response, error) {
	if f := fake(); f != nil {
		return f.HTTPFetch(url, method, headers, body)
	}
	return Response{}, ErrNotInApp
}

func SQLQuery(connection, statement, params string) (string, error) {
	if f := fake(); f != nil {
		return f.SQLQuery(connection, statement, params)
	}
	return "", ErrNotInApp
}

func SQLExecute(connection, statement, params string) (string, error) {
	if f := fake(); f != nil {
		return f.SQLExecute(connection, statement, params)
	}
	return "", ErrNotInApp
}

func GraphQuery(connection, query, vars string) (string, error) {
	if f := fake(); f != nil {
		return f.GraphQuery(connection, query, vars)
	}
	return "", ErrNotInApp
}

func GraphMutate(connection, request string) (string, error) {
	if f := fake(); f != nil {
		return f.GraphMutate(connection, request)
	}
	return "", ErrNotInApp
}

func GraphAlter(connection, schema string) (string, error) {
	if f := fake(); f != nil {
		return f.GraphAlter(connection, schema)
	}
	return "", ErrNotInApp
}

func ModelInvoke(name, input string) (string, error) {
	if f := fake(); f != nil {
		return f.ModelInvoke(name, input)
	}
	return "", ErrNotInApp
}

func AppSecret(name string) (string, error) {
	if f := fake(); f != nil {
		return f.AppSecret(name)
	}
	return "", ErrNotInApp
}

// JWTClaims answers the fake host's claims; outside a test there are none.
func JWTClaims() (string, bool) {
	if f := fake(); f != nil {
		return f.JWTClaims()
	}
	return "", false
}

// Log goes to the fake host, or to stderr so `go test -v` still shows what the code logged.
func Log(level, message string) {
	if f := fake(); f != nil {
		f.Log(level, message)
		return
	}
	fmt.Fprintf(os.Stderr, "%s: %s\n", level, message)
}
