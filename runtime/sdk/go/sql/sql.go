// Package sql runs statements on the app's `relationaldb` connections (PostgreSQL, MySQL). Parameters
// are positional ($1 / ?) and travel as JSON; each call runs in its own transaction on the host.
package sql

import (
	"encoding/json"

	"github.com/trellis-dev/trellis/runtime/sdk/go/internal/host"
)

// ExecResult is what Execute reports.
type ExecResult struct {
	RowsAffected int64  `json:"rowsAffected"`
	LastInsertID *int64 `json:"lastInsertId"`
}

func encodeParams(params []any) (string, error) {
	if params == nil {
		params = []any{}
	}
	b, err := json.Marshal(params)
	return string(b), err
}

// Query returns the rows as JSON objects keyed by column name.
func Query(connection, statement string, params ...any) ([]map[string]any, error) {
	return QueryAs[map[string]any](connection, statement, params...)
}

// QueryAs decodes each row into T (use `json` tags matching the column names).
func QueryAs[T any](connection, statement string, params ...any) ([]T, error) {
	p, err := encodeParams(params)
	if err != nil {
		return nil, err
	}
	out, err := host.SQLQuery(connection, statement, p)
	if err != nil {
		return nil, err
	}
	var rows []T
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		return nil, err
	}
	return rows, nil
}

// Execute runs a statement that returns no rows.
func Execute(connection, statement string, params ...any) (ExecResult, error) {
	var res ExecResult
	p, err := encodeParams(params)
	if err != nil {
		return res, err
	}
	out, err := host.SQLExecute(connection, statement, p)
	if err != nil {
		return res, err
	}
	err = json.Unmarshal([]byte(out), &res)
	return res, err
}
