// Package graph queries and mutates the app's `graphdb` connections with DQL.
package graph

import (
	"encoding/json"

	"github.com/trellis-dev/trellis/runtime/sdk/go/internal/host"
)

// Mutation is one mutation of a request; set the fields you need. SetJSON and DeleteJSON take the
// nodes as Go values (a struct, map or slice, encoded to JSON; json.RawMessage for JSON text you have).
type Mutation struct {
	SetJSON    any    `json:"setJson,omitempty"`
	DeleteJSON any    `json:"deleteJson,omitempty"`
	SetNquads  string `json:"setNquads,omitempty"`
	DelNquads  string `json:"delNquads,omitempty"`
	Cond       string `json:"cond,omitempty"`
}

// Request is an optional upsert query plus mutations, committed at once.
type Request struct {
	Query     string            `json:"query,omitempty"`
	Vars      map[string]string `json:"vars,omitempty"`
	Mutations []Mutation        `json:"mutations"`
}

// Response carries the upsert query's data (if any) and the uids assigned to blank nodes.
type Response struct {
	JSON json.RawMessage   `json:"json"`
	UIDs map[string]string `json:"uids"`
}

// Query runs a DQL query; vars maps `$name` to its value. Returns the data JSON.
func Query(connection, query string, vars map[string]string) (json.RawMessage, error) {
	if vars == nil {
		vars = map[string]string{}
	}
	v, err := json.Marshal(vars)
	if err != nil {
		return nil, err
	}
	out, err := host.GraphQuery(connection, query, string(v))
	if err != nil {
		return nil, err
	}
	return json.RawMessage(out), nil
}

// QueryAs runs a DQL query and decodes the data into T.
func QueryAs[T any](connection, query string, vars map[string]string) (T, error) {
	var out T
	raw, err := Query(connection, query, vars)
	if err != nil {
		return out, err
	}
	err = json.Unmarshal(raw, &out)
	return out, err
}

// Mutate commits the request's mutations (an upsert when it has a query).
func Mutate(connection string, request Request) (*Response, error) {
	if request.Mutations == nil {
		request.Mutations = []Mutation{}
	}
	b, err := json.Marshal(request)
	if err != nil {
		return nil, err
	}
	out, err := host.GraphMutate(connection, string(b))
	if err != nil {
		return nil, err
	}
	var res Response
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Alter applies DQL schema text.
func Alter(connection, schema string) error {
	_, err := host.GraphAlter(connection, schema)
	return err
}
