// Every exported function of package main becomes a GraphQL field: `SayHello` → `sayHello`.
// Functions named get…/list… are queries; add…/create…/update…/delete… and the like are mutations.
package main

import (
	"fmt"

	"github.com/trellis-dev/trellis/runtime/sdk/go/graph"
	"github.com/trellis-dev/trellis/runtime/sdk/go/http"
	"github.com/trellis-dev/trellis/runtime/sdk/go/log"
	"github.com/trellis-dev/trellis/runtime/sdk/go/models"
	"github.com/trellis-dev/trellis/runtime/sdk/go/sql"
)

// SayHello returns a greeting.
func SayHello(name string) string {
	log.Infof("greeting %s", name)
	return "Hello, " + name + "!"
}

// Quote is what the quotes API returns.
type Quote struct {
	Text   string
	Author string
}

// GetRandomQuote calls the `quotes` HTTP connection; its Authorization header is added by the host.
func GetRandomQuote() (*Quote, error) {
	res, err := http.Get("https://api.example.com/random-quote")
	if err != nil {
		return nil, err
	}
	if !res.OK() {
		return nil, fmt.Errorf("quotes API: %d %s", res.Status, res.StatusText)
	}
	var body struct {
		Q string `json:"q"`
		A string `json:"a"`
	}
	if err := res.JSON(&body); err != nil {
		return nil, err
	}
	return &Quote{Text: body.Q, Author: body.A}, nil
}

// Person is a row of the `people` table.
type Person struct {
	ID   int64
	Name string
}

// ListPeople reads from the `db` connection (PostgreSQL placeholders; MySQL uses ?).
func ListPeople(limit int) ([]Person, error) {
	rows, err := sql.QueryAs[struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}]("db", "select id, name from people order by id limit $1", limit)
	if err != nil {
		return nil, err
	}
	people := make([]Person, len(rows))
	for i, r := range rows {
		people[i] = Person{ID: r.ID, Name: r.Name}
	}
	return people, nil
}

// AddMovie stores a node in the `graph` connection and returns its uid.
func AddMovie(title string) (string, error) {
	res, err := graph.Mutate("graph", graph.Request{
		Mutations: []graph.Mutation{{SetJSON: fmt.Sprintf(`{"uid": "_:movie", "title": %q}`, title)}},
	})
	if err != nil {
		return "", err
	}
	return res.UIDs["movie"], nil
}

// GenerateText asks the `text-generator` model (an OpenAI-compatible chat completion).
func GenerateText(prompt string) (string, error) {
	out, err := models.InvokeAs[struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}]("text-generator", map[string]any{
		"messages": []map[string]string{{"role": "user", "content": prompt}},
	})
	if err != nil {
		return "", err
	}
	if len(out.Choices) == 0 {
		return "", fmt.Errorf("the model returned no choices")
	}
	return out.Choices[0].Message.Content, nil
}

func main() {}
