// Package models invokes the models declared in the app manifest. Requests and responses are the
// provider's JSON bodies (for an OpenAI-compatible chat model: {"messages": [...]}).
package models

import (
	"encoding/json"

	"github.com/trellis-dev/trellis/runtime/sdk/go/internal/host"
)

// Invoke sends input (marshalled to JSON) to the named model and returns the raw JSON response.
func Invoke(name string, input any) (json.RawMessage, error) {
	b, err := json.Marshal(input)
	if err != nil {
		return nil, err
	}
	out, err := host.ModelInvoke(name, string(b))
	if err != nil {
		return nil, err
	}
	return json.RawMessage(out), nil
}

// InvokeAs decodes the model's response into T.
func InvokeAs[T any](name string, input any) (T, error) {
	var out T
	raw, err := Invoke(name, input)
	if err != nil {
		return out, err
	}
	err = json.Unmarshal(raw, &out)
	return out, err
}
