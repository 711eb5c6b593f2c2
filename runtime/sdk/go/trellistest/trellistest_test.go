package trellistest_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/trellis-dev/trellis/runtime/sdk/go/auth"
	"github.com/trellis-dev/trellis/runtime/sdk/go/graph"
	"github.com/trellis-dev/trellis/runtime/sdk/go/http"
	"github.com/trellis-dev/trellis/runtime/sdk/go/log"
	"github.com/trellis-dev/trellis/runtime/sdk/go/models"
	"github.com/trellis-dev/trellis/runtime/sdk/go/secrets"
	"github.com/trellis-dev/trellis/runtime/sdk/go/sql"
	"github.com/trellis-dev/trellis/runtime/sdk/go/trellistest"
)

func TestHTTPUsesTheLongestMatchingPrefixAndRecordsRequests(t *testing.T) {
	h := trellistest.New(t)
	h.HandleHTTP("https://api.example.com/", func(r *trellistest.Request) (*trellistest.Response, error) {
		return &trellistest.Response{Status: 404, Body: "generic"}, nil
	})
	h.HandleHTTP("https://api.example.com/quotes/", func(r *trellistest.Request) (*trellistest.Response, error) {
		return trellistest.JSON(200, map[string]string{"q": "Be curious", "auth": r.Header("X-Key")}), nil
	})
	res, err := http.Fetch("https://api.example.com/quotes/1", &http.Options{Headers: [][2]string{{"x-key", "k1"}}})
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]string
	if err := res.JSON(&body); err != nil || !res.OK() || body["q"] != "Be curious" || body["auth"] != "k1" {
		t.Fatalf("got %d %v %v", res.Status, body, err)
	}
	other, _ := http.Get("https://api.example.com/other")
	if other.Status != 404 || other.Body != "generic" {
		t.Fatalf("fallback handler not used: %+v", other)
	}
	if got := h.Requests(); len(got) != 2 || got[0].Method != "GET" || got[1].URL != "https://api.example.com/other" {
		t.Fatalf("requests %+v", got)
	}
}

func TestUnhandledCallsNameTheHandlerToRegister(t *testing.T) {
	trellistest.New(t)
	_, err := http.Get("https://nowhere.example/")
	if err == nil || !strings.Contains(err.Error(), "HandleHTTP") {
		t.Fatalf("err = %v", err)
	}
	_, err = sql.Query("db", "select 1")
	if err == nil || !strings.Contains(err.Error(), "HandleSQL") {
		t.Fatalf("err = %v", err)
	}
	if _, err := secrets.Get("TOKEN"); err == nil || !strings.Contains(err.Error(), "SetSecret") {
		t.Fatalf("err = %v", err)
	}
}

func TestSQLGraphModelsSecretsAndLogs(t *testing.T) {
	h := trellistest.New(t)
	h.HandleSQL("db", func(stmt string, params []any) ([]map[string]any, error) {
		if stmt != "select id, name from people where id > $1" || params[0] != float64(1) {
			return nil, errors.New("unexpected statement")
		}
		return []map[string]any{{"id": 2, "name": "Ada"}}, nil
	})
	h.HandleSQLExec("db", func(stmt string, params []any) (sql.ExecResult, error) {
		return sql.ExecResult{RowsAffected: int64(len(params))}, nil
	})
	h.HandleGraphQuery("graph", func(query string, vars map[string]string) (any, error) {
		return map[string]any{"people": []map[string]string{{"name": vars["$name"]}}}, nil
	})
	h.HandleGraphMutate("graph", func(req graph.Request) (graph.Response, error) {
		return graph.Response{UIDs: map[string]string{"p": "0x1"}}, nil
	})
	h.HandleModel("text-generator", func(input json.RawMessage) (any, error) {
		return map[string]any{"echo": json.RawMessage(input)}, nil
	})
	h.SetSecret("TOKEN", "s3cret")

	rows, err := sql.QueryAs[struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}]("db", "select id, name from people where id > $1", 1)
	if err != nil || len(rows) != 1 || rows[0].Name != "Ada" {
		t.Fatalf("rows %v %v", rows, err)
	}
	if res, err := sql.Execute("db", "delete from people where id in ($1, $2)", 1, 2); err != nil || res.RowsAffected != 2 {
		t.Fatalf("exec %v %v", res, err)
	}
	people, err := graph.QueryAs[struct {
		People []struct{ Name string } `json:"people"`
	}]("graph", "query q($name: string) { people(func: eq(name, $name)) { name } }", map[string]string{"$name": "Ada"})
	if err != nil || people.People[0].Name != "Ada" {
		t.Fatalf("graph %v %v", people, err)
	}
	if res, err := graph.Mutate("graph", graph.Request{Mutations: []graph.Mutation{{SetJSON: map[string]string{"uid": "_:p"}}}}); err != nil || res.UIDs["p"] != "0x1" {
		t.Fatalf("mutate %v %v", res, err)
	}
	out, err := models.Invoke("text-generator", map[string]string{"prompt": "hi"})
	if err != nil || string(out) != `{"echo":{"prompt":"hi"}}` {
		t.Fatalf("model %s %v", out, err)
	}
	if v, err := secrets.Get("TOKEN"); err != nil || v != "s3cret" {
		t.Fatalf("secret %q %v", v, err)
	}
	log.Infof("done with %d rows", len(rows))
	if logs := h.Logs(); len(logs) != 1 || logs[0] != (trellistest.LogEntry{Level: "info", Message: "done with 1 rows"}) {
		t.Fatalf("logs %+v", logs)
	}
}

func TestJWTClaimsAreTheFakesOrNone(t *testing.T) {
	h := trellistest.New(t)
	type claims struct {
		Sub  string `json:"sub"`
		Role string `json:"role"`
	}
	none, err := auth.GetJWTClaims[claims]()
	if err != nil || none != (claims{}) || auth.HasJWTClaims() {
		t.Fatalf("without claims: %v %v", none, err)
	}
	h.SetJWTClaims(map[string]any{"sub": "user-1", "role": "admin"})
	got, err := auth.GetJWTClaims[claims]()
	if err != nil || got != (claims{Sub: "user-1", Role: "admin"}) || !auth.HasJWTClaims() {
		t.Fatalf("with claims: %v %v", got, err)
	}
	asMap, err := auth.GetJWTClaims[map[string]any]()
	if err != nil || asMap["sub"] != "user-1" {
		t.Fatalf("as a map: %v %v", asMap, err)
	}
	h.SetJWTClaims(nil)
	if auth.HasJWTClaims() {
		t.Fatal("claims after SetJWTClaims(nil)")
	}
}
