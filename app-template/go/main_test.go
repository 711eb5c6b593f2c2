package main

import (
	"encoding/json"
	"testing"

	"github.com/trellis-dev/trellis/runtime/sdk/go/graph"
	"github.com/trellis-dev/trellis/runtime/sdk/go/trellistest"
)

// `go test` runs the functions natively: trellistest stands in for the host's connections.

func TestSayHello(t *testing.T) {
	if got := SayHello("Trellis"); got != "Hello, Trellis!" {
		t.Fatalf("SayHello = %q", got)
	}
}

func TestGetQuote(t *testing.T) {
	h := trellistest.New(t)
	h.HandleHTTP("https://api.example.com/", func(r *trellistest.Request) (*trellistest.Response, error) {
		return trellistest.JSON(200, Quote{Text: "Be curious", Author: "Ada"}), nil
	})
	quote, err := GetQuote()
	if err != nil || quote.Text != "Be curious" || quote.Author != "Ada" {
		t.Fatalf("GetQuote = %+v, %v", quote, err)
	}
}

func TestAddPerson(t *testing.T) {
	h := trellistest.New(t)
	h.HandleGraphMutate("graph", func(req graph.Request) (graph.Response, error) {
		if person, ok := req.Mutations[0].SetJSON.(map[string]any); !ok || person["name"] != "Ada" {
			t.Errorf("mutation %v", req.Mutations[0].SetJSON)
		}
		return graph.Response{UIDs: map[string]string{"person": "0x2a"}}, nil
	})
	uid, err := AddPerson("Ada", nil)
	if err != nil || uid != "0x2a" {
		t.Fatalf("AddPerson = %q, %v", uid, err)
	}
}

func TestGenerateText(t *testing.T) {
	h := trellistest.New(t)
	h.HandleModel("text-generator", func(input json.RawMessage) (any, error) {
		return map[string]any{"choices": []any{map[string]any{"message": map[string]string{"content": "Hi!"}}}}, nil
	})
	if got, err := GenerateText("hello"); err != nil || got != "Hi!" {
		t.Fatalf("GenerateText = %q, %v", got, err)
	}
}
