// Package models invokes the models declared in the app manifest. Requests and responses are the
// provider's JSON bodies (for an OpenAI-compatible chat model: {"messages": [...]}).
package models

import (
	"encoding/json"
	"fmt"

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

// ChatMessage is one message of an OpenAI-compatible chat completion.
type ChatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Chat sends messages to a chat-completions model (OpenAI-compatible) and returns the first choice's
// content. The host adds the model name from the manifest.
func Chat(name string, messages ...ChatMessage) (string, error) {
	res, err := InvokeAs[struct {
		Choices []struct {
			Message struct {
				Content *string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}](name, map[string]any{"messages": messages})
	if err != nil {
		return "", err
	}
	if len(res.Choices) == 0 || res.Choices[0].Message.Content == nil {
		return "", fmt.Errorf("model %s returned no chat message content", name)
	}
	return *res.Choices[0].Message.Content, nil
}
