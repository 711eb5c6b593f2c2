// Command trellis-sigs prints the exported function signatures and struct types of the Go app in a
// directory as JSON, for `trellis build` to turn into the app's WIT world. It only parses (go/parser),
// so it works on code that does not compile yet and needs nothing beyond the standard library
// (kept Go 1.19-compatible on purpose).
//
// Usage: go run ./cmd/trellis-sigs <appDir>
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// TypeExpr is a Go type expression as a JSON tree.
type TypeExpr struct {
	// Kind is one of ident, pointer, slice, array, map, qualified, struct, interface, func, chan, ellipsis,
	// unknown.
	Kind string `json:"kind"`
	// Name is set for ident (`string`, `Person`) and qualified (`time.Time`: Package "time", Name "Time").
	Name string `json:"name,omitempty"`
	// Package is a qualified type's import path (resolved through the file's imports, so an aliased
	// import still reads "time").
	Package string    `json:"package,omitempty"`
	Elem    *TypeExpr `json:"elem,omitempty"`
	Key     *TypeExpr `json:"key,omitempty"`
	// Text is the source text of the expression, for error messages.
	Text string `json:"text"`
}

type Param struct {
	Name string   `json:"name"`
	Type TypeExpr `json:"type"`
}

type Function struct {
	Name    string     `json:"name"`
	Pos     string     `json:"pos"`
	Doc     string     `json:"doc,omitempty"`
	Params  []Param    `json:"params"`
	Results []TypeExpr `json:"results"`
}

type Field struct {
	Name     string   `json:"name"`
	Type     TypeExpr `json:"type"`
	Pos      string   `json:"pos"`
	Exported bool     `json:"exported"`
	Embedded bool     `json:"embedded,omitempty"`
	// JSON is the field's `json` struct tag ("name,omitempty", "-"), which also names it in the API.
	JSON string `json:"json,omitempty"`
	Doc  string `json:"doc,omitempty"`
}

type TypeDecl struct {
	Name string `json:"name"`
	Pos  string `json:"pos"`
	Doc  string `json:"doc,omitempty"`
	// Kind is "struct", or "other" for any other named type (`type Color string`).
	Kind   string    `json:"kind"`
	Fields []Field   `json:"fields"`
	Under  *TypeExpr `json:"under,omitempty"`
}

type Output struct {
	Package string `json:"package"`
	// HasMain reports whether the package declares func main (the build adds an empty one otherwise).
	HasMain   bool       `json:"hasMain"`
	Functions []Function `json:"functions"`
	Types     []TypeDecl `json:"types"`
	Errors    []string   `json:"errors"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: trellis-sigs <appDir>")
		os.Exit(2)
	}
	out := extract(os.Args[1])
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func extract(dir string) Output {
	out := Output{Functions: []Function{}, Types: []TypeDecl{}, Errors: []string{}}
	fset := token.NewFileSet()
	filter := func(fi os.FileInfo) bool {
		name := fi.Name()
		// Generated glue and tests are not part of the app's API.
		return !strings.HasSuffix(name, "_test.go") && !strings.HasSuffix(name, "_gen.go")
	}
	pkgs, err := parser.ParseDir(fset, dir, filter, parser.ParseComments)
	if err != nil {
		out.Errors = append(out.Errors, err.Error())
		return out
	}
	pkg, ok := pkgs["main"]
	if !ok {
		out.Errors = append(out.Errors, fmt.Sprintf("%s: no package main found", dir))
		return out
	}
	out.Package = "main"

	// Deterministic order: files by name, declarations in source order.
	names := make([]string, 0, len(pkg.Files))
	for name := range pkg.Files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		file := pkg.Files[name]
		src, _ := os.ReadFile(name)
		text := func(n ast.Node) string {
			start, end := fset.Position(n.Pos()).Offset, fset.Position(n.End()).Offset
			if src == nil || start < 0 || end > len(src) || start > end {
				return ""
			}
			return string(src[start:end])
		}
		imports := importPaths(file)
		pos := func(p token.Pos) string {
			position := fset.Position(p)
			return fmt.Sprintf("%s:%d:%d", filepath.Base(position.Filename), position.Line, position.Column)
		}
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == "main" {
					out.HasMain = true
				}
				if d.Recv != nil || !d.Name.IsExported() {
					continue
				}
				fn := Function{Name: d.Name.Name, Pos: pos(d.Name.Pos()), Doc: docText(d.Doc), Params: []Param{}, Results: []TypeExpr{}}
				if d.Type.TypeParams != nil && len(d.Type.TypeParams.List) > 0 {
					out.Errors = append(out.Errors, fmt.Sprintf("%s: generic function %s cannot be exported", fn.Pos, fn.Name))
					continue
				}
				for i, field := range d.Type.Params.List {
					t := typeExpr(field.Type, text, imports)
					if len(field.Names) == 0 {
						fn.Params = append(fn.Params, Param{Name: fmt.Sprintf("arg%d", i), Type: t})
					}
					for _, n := range field.Names {
						fn.Params = append(fn.Params, Param{Name: n.Name, Type: t})
					}
				}
				if d.Type.Results != nil {
					for _, field := range d.Type.Results.List {
						t := typeExpr(field.Type, text, imports)
						count := len(field.Names)
						if count == 0 {
							count = 1
						}
						for i := 0; i < count; i++ {
							fn.Results = append(fn.Results, t)
						}
					}
				}
				out.Functions = append(out.Functions, fn)
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, spec := range d.Specs {
					ts := spec.(*ast.TypeSpec)
					doc := ts.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					td := TypeDecl{Name: ts.Name.Name, Pos: pos(ts.Name.Pos()), Doc: docText(doc), Fields: []Field{}}
					if st, ok := ts.Type.(*ast.StructType); ok {
						td.Kind = "struct"
						for _, field := range st.Fields.List {
							t := typeExpr(field.Type, text, imports)
							if len(field.Names) == 0 {
								td.Fields = append(td.Fields, Field{Name: t.Name, Type: t, Pos: pos(field.Pos()), Embedded: true})
							}
							tag := ""
							if field.Tag != nil {
								if unquoted, err := strconv.Unquote(field.Tag.Value); err == nil {
									tag = reflect.StructTag(unquoted).Get("json")
								}
							}
							for _, n := range field.Names {
								td.Fields = append(td.Fields, Field{Name: n.Name, Type: t, Pos: pos(n.Pos()), Exported: n.IsExported(), JSON: tag, Doc: docText(field.Doc)})
							}
						}
					} else {
						td.Kind = "other"
						under := typeExpr(ts.Type, text, imports)
						td.Under = &under
					}
					out.Types = append(out.Types, td)
				}
			}
		}
	}
	return out
}

// importPaths maps the names a file refers to its imports by (alias or last path element) to paths.
func importPaths(file *ast.File) map[string]string {
	paths := map[string]string{}
	for _, spec := range file.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if spec.Name != nil {
			name = spec.Name.Name
		}
		paths[name] = path
	}
	return paths
}

func typeExpr(e ast.Expr, text func(ast.Node) string, imports map[string]string) TypeExpr {
	t := TypeExpr{Text: text(e)}
	switch x := e.(type) {
	case *ast.Ident:
		t.Kind, t.Name = "ident", x.Name
	case *ast.StarExpr:
		elem := typeExpr(x.X, text, imports)
		t.Kind, t.Elem = "pointer", &elem
	case *ast.ArrayType:
		elem := typeExpr(x.Elt, text, imports)
		t.Elem = &elem
		if x.Len == nil {
			t.Kind = "slice"
		} else {
			t.Kind = "array"
		}
	case *ast.MapType:
		key, elem := typeExpr(x.Key, text, imports), typeExpr(x.Value, text, imports)
		t.Kind, t.Key, t.Elem = "map", &key, &elem
	case *ast.SelectorExpr:
		t.Kind, t.Name = "qualified", x.Sel.Name
		if pkg, ok := x.X.(*ast.Ident); ok {
			t.Package = pkg.Name
			if path, ok := imports[pkg.Name]; ok {
				t.Package = path
			}
		}
	case *ast.ParenExpr:
		return typeExpr(x.X, text, imports)
	case *ast.StructType:
		t.Kind = "struct"
	case *ast.InterfaceType:
		t.Kind = "interface"
	case *ast.FuncType:
		t.Kind = "func"
	case *ast.ChanType:
		t.Kind = "chan"
	case *ast.Ellipsis:
		elem := typeExpr(x.Elt, text, imports)
		t.Kind, t.Elem = "ellipsis", &elem
	default:
		t.Kind = "unknown"
	}
	return t
}

func docText(g *ast.CommentGroup) string {
	if g == nil {
		return ""
	}
	return strings.TrimSpace(g.Text())
}
