// Every exported function of package main becomes a GraphQL field: `GetQuote` → `Query.quote`,
// `AddPerson` → `Mutation.addPerson`. Use plain Go types: string, bool, sized integers (int is a
// 32-bit Int), floats, time.Time, pointers (nullable), slices and structs of this package (a `json`
// tag renames a field). Return a trailing error to answer with a GraphQL error.
package main

import (
	"fmt"

	"github.com/trellis-dev/trellis/runtime/sdk/go/graph"
	"github.com/trellis-dev/trellis/runtime/sdk/go/http"
	"github.com/trellis-dev/trellis/runtime/sdk/go/models"
	"github.com/trellis-dev/trellis/runtime/sdk/go/sql"
)

// Quote is what the quotes API returns.
type Quote struct {
	Text   string `json:"text"`
	Author string `json:"author"`
}

// Person is a node of the graph.
type Person struct {
	UID  string `json:"uid"`
	Name string `json:"name"`
	Age  *int32 `json:"age"`
}

// SayHello is a pure function: no connection needed.
func SayHello(name string) string {
	return "Hello, " + name + "!"
}

// GetQuote calls the `quotes` HTTP connection (its Authorization header is added by the host).
func GetQuote() (*Quote, error) {
	res, err := http.Get("https://api.example.com/quotes/random")
	if err != nil {
		return nil, err
	}
	if !res.OK() {
		return nil, fmt.Errorf("quote service answered %d %s", res.Status, res.StatusText)
	}
	var quote Quote
	if err := res.JSON(&quote); err != nil {
		return nil, err
	}
	return &quote, nil
}

// GetTableCount runs SQL on the `db` connection.
func GetTableCount() (int, error) {
	rows, err := sql.QueryAs[struct {
		Count int `json:"count"`
	}]("db", "select count(*)::int as count from information_schema.tables where table_schema = $1", "public")
	if err != nil {
		return 0, err
	}
	if len(rows) == 0 {
		return 0, nil
	}
	return rows[0].Count, nil
}

// ListPeople runs DQL on the `graph` connection: everyone added with AddPerson, by name.
func ListPeople() ([]Person, error) {
	data, err := graph.QueryAs[struct {
		People []Person `json:"people"`
	}]("graph", "{ people(func: type(Person), orderasc: name) { uid name age } }", nil)
	if err != nil {
		return nil, err
	}
	return data.People, nil
}

// AddPerson is a mutation on the `graph` connection; it returns the new node's uid.
func AddPerson(name string, age *int32) (string, error) {
	person := map[string]any{"uid": "_:person", "dgraph.type": "Person", "name": name}
	if age != nil {
		person["age"] = *age
	}
	res, err := graph.Mutate("graph", graph.Request{Mutations: []graph.Mutation{{SetJSON: person}}})
	if err != nil {
		return "", err
	}
	return res.UIDs["person"], nil
}

// GenerateText asks the `text-generator` model (an OpenAI-compatible chat endpoint).
func GenerateText(prompt string) (string, error) {
	return models.Chat("text-generator",
		models.ChatMessage{Role: "system", Content: "You are a helpful assistant. Answer in one short paragraph."},
		models.ChatMessage{Role: "user", Content: prompt},
	)
}

func main() {}
