package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/lsp-hook/lsp-hook/internal/fileuri"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/lsp"
)

// Answers. Every location is rendered "rel/path:line:col: source line",
// the path relative to the workspace root (absolute outside it: a standard
// library or dependency file), line and column 1-based in code points, and
// the source line trimmed and cut at maxContext characters. Lists are
// capped (maxReferences, maxSymbols) and end with how many were left out.

// Caps of what one answer holds.
const (
	maxReferences = 50   // references shown with context; the rest are counted
	maxSymbols    = 200  // document or workspace symbols shown
	maxContext    = 160  // characters of a source line shown
	maxHover      = 4000 // characters of hover text shown
)

// wirePosition, wireRange, wireLocation and wireLocationLink are LSP 3.17
// "Position", "Range", "Location" and "LocationLink" as servers send them.
type (
	wireLocation struct {
		URI   string    `json:"uri"`
		Range lsp.Range `json:"range"`
	}
	wireLocationLink struct {
		TargetURI            string    `json:"targetUri"`
		TargetRange          lsp.Range `json:"targetRange"`
		TargetSelectionRange lsp.Range `json:"targetSelectionRange"`
	}
)

// decodeLocations decodes a definition or references result:
// Location | Location[] | LocationLink[] | null (LSP 3.17
// "Goto Definition Request"). A link gives its targetSelectionRange (the
// name, not the whole declaration). Any other shape is an error.
func decodeLocations(raw json.RawMessage) ([]wireLocation, error) {
	s := strings.TrimSpace(string(raw))
	switch {
	case s == "" || s == "null":
		return nil, nil
	case strings.HasPrefix(s, "{"):
		var l wireLocation
		if err := json.Unmarshal(raw, &l); err != nil || l.URI == "" {
			return nil, fmt.Errorf("decoding location %.200s: not a Location", s)
		}
		return []wireLocation{l}, nil
	case !strings.HasPrefix(s, "["):
		return nil, fmt.Errorf("decoding locations %.200s: not null, a Location or an array", s)
	}
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("decoding locations %.200s: %w", s, err)
	}
	out := make([]wireLocation, 0, len(items))
	for _, it := range items {
		b, _ := json.Marshal(it)
		switch {
		case it["targetUri"] != nil:
			var l wireLocationLink
			if err := json.Unmarshal(b, &l); err != nil {
				return nil, fmt.Errorf("decoding LocationLink %.200s: %w", b, err)
			}
			out = append(out, wireLocation{URI: l.TargetURI, Range: l.TargetSelectionRange})
		case it["uri"] != nil:
			var l wireLocation
			if err := json.Unmarshal(b, &l); err != nil {
				return nil, fmt.Errorf("decoding Location %.200s: %w", b, err)
			}
			out = append(out, l)
		default:
			return nil, fmt.Errorf("decoding locations: item %.200s is neither a Location nor a LocationLink", b)
		}
	}
	return out, nil
}

// uriPath turns a file:// URI into a cleaned absolute path, any spelling
// of a Windows drive included (internal/fileuri).
func uriPath(uri string) (string, error) {
	p, err := fileuri.ToPath(uri)
	if err != nil {
		return "", fmt.Errorf("location %q is not a file URI: %w", uri, err)
	}
	return p, nil
}

// fileURI turns an absolute path into a file:// URI (internal/fileuri:
// a Windows drive as VS Code writes it, "file:///c%3A/x").
func fileURI(path string) string { return fileuri.FromPath(path) }

// renderer renders locations for one answer, reading each file once.
type renderer struct {
	root  string
	enc   string              // the server's position encoding
	files map[string][]string // path → lines; nil when unreadable
}

func newRenderer(root, enc string) *renderer {
	return &renderer{root: root, enc: enc, files: make(map[string][]string)}
}

// lines returns path's lines, read once.
func (r *renderer) lines(path string) []string {
	ls, ok := r.files[path]
	if !ok {
		ls, _ = fileLines(path)
		r.files[path] = ls
	}
	return ls
}

// rel names path relative to the workspace root, or absolute outside it
// (workspace.Display).
func (r *renderer) rel(path string) string {
	return workspace.Display(r.root, path)
}

// where renders a position of uri as "rel:line:col" and returns the line's
// source text (trimmed, cut at maxContext; "" when the file is unreadable).
func (r *renderer) where(uri string, p lsp.Position) (string, string) {
	path, err := uriPath(uri)
	if err != nil {
		return uri, ""
	}
	line, col := int(p.Line)+1, int(p.Character)+1
	var text string
	if ls := r.lines(path); int(p.Line) < len(ls) {
		l := ls[p.Line]
		col = lsp.Column([]byte(l), p.Character, r.enc)
		text = cut(strings.TrimSpace(l), maxContext)
	}
	return fmt.Sprintf("%s:%d:%d", r.rel(path), line, col), text
}

// location renders "rel:line:col: source line".
func (r *renderer) location(uri string, p lsp.Position) string {
	w, text := r.where(uri, p)
	if text == "" {
		return w
	}
	return w + ": " + text
}

// locations renders a list of locations, one per line, capped at max
// with a count of the rest.
func (r *renderer) locations(locs []wireLocation, max int) string {
	var b strings.Builder
	for i, l := range locs {
		if i == max {
			fmt.Fprintf(&b, "... and %d more (%d in all)\n", len(locs)-max, len(locs))
			break
		}
		b.WriteString(r.location(l.URI, l.Range.Start))
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// cut shortens s to at most n characters, marking the cut with "…".
func cut(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// hoverText renders a hover result (LSP 3.17 "Hover": contents is
// MarkupContent | MarkedString | MarkedString[], a MarkedString a string or
// {language, value}) as plain text, "" for null. Other shapes are errors.
func hoverText(raw json.RawMessage) (string, error) {
	if s := strings.TrimSpace(string(raw)); s == "" || s == "null" {
		return "", nil
	}
	var h struct {
		Contents json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return "", fmt.Errorf("decoding hover %.200s: %w", raw, err)
	}
	var parts []json.RawMessage
	if strings.HasPrefix(strings.TrimSpace(string(h.Contents)), "[") {
		if err := json.Unmarshal(h.Contents, &parts); err != nil {
			return "", fmt.Errorf("decoding hover contents %.200s: %w", h.Contents, err)
		}
	} else {
		parts = []json.RawMessage{h.Contents}
	}
	var out []string
	for _, p := range parts {
		s, err := markedString(p)
		if err != nil {
			return "", err
		}
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return cut(strings.Join(out, "\n\n"), maxHover), nil
}

// markedString decodes a string, a MarkedString {language, value}, or
// MarkupContent {kind, value}.
func markedString(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var m struct {
		Language *string `json:"language"`
		Kind     *string `json:"kind"`
		Value    *string `json:"value"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.Value == nil {
		return "", fmt.Errorf("decoding hover contents %.200s: not a string, MarkedString or MarkupContent", raw)
	}
	if m.Language != nil {
		return "```" + *m.Language + "\n" + *m.Value + "\n```", nil
	}
	return *m.Value, nil
}

// symbolKinds names LSP 3.17 "SymbolKind" values 1–26.
var symbolKinds = []string{"", "file", "module", "namespace", "package", "class", "method", "property",
	"field", "constructor", "enum", "interface", "function", "variable", "constant", "string", "number",
	"boolean", "array", "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"}

func kindName(k int) string {
	if k > 0 && k < len(symbolKinds) {
		return symbolKinds[k]
	}
	return fmt.Sprintf("kind %d", k)
}

// wireSymbol is LSP 3.17 "DocumentSymbol", "SymbolInformation" and
// "WorkspaceSymbol" together: a DocumentSymbol has selectionRange (and
// children), the others a location (a WorkspaceSymbol's may lack a range).
type wireSymbol struct {
	Name           string     `json:"name"`
	Kind           int        `json:"kind"`
	Detail         string     `json:"detail"`
	ContainerName  string     `json:"containerName"`
	SelectionRange *lsp.Range `json:"selectionRange"`
	Location       *struct {
		URI   string     `json:"uri"`
		Range *lsp.Range `json:"range"`
	} `json:"location"`
	Children []wireSymbol `json:"children"`
}

// errNoSymbolPosition marks a symbol with neither a selectionRange nor a
// location.
var errNoSymbolPosition = errors.New("symbol has neither selectionRange nor location")

// symbols renders a documentSymbol or workspace/symbol result, one symbol
// per line: "rel:line:col kind name (container)", children of a
// DocumentSymbol indented under it; uri is the document's for a
// DocumentSymbol result. At most maxSymbols lines, then a count.
func (r *renderer) symbols(raw json.RawMessage, uri string) (string, error) {
	if s := strings.TrimSpace(string(raw)); s == "" || s == "null" {
		return "", nil
	}
	var syms []wireSymbol
	if err := json.Unmarshal(raw, &syms); err != nil {
		return "", fmt.Errorf("decoding symbols %.200s: %w", raw, err)
	}
	var lines []string
	var walk func(ss []wireSymbol, depth int) error
	walk = func(ss []wireSymbol, depth int) error {
		for _, s := range ss {
			var at string
			switch {
			case s.SelectionRange != nil:
				at, _ = r.where(uri, s.SelectionRange.Start)
			case s.Location != nil && s.Location.Range != nil:
				at, _ = r.where(s.Location.URI, s.Location.Range.Start)
			case s.Location != nil:
				p, err := uriPath(s.Location.URI)
				if err != nil {
					return err
				}
				at = r.rel(p)
			default:
				return fmt.Errorf("%w: %q", errNoSymbolPosition, s.Name)
			}
			l := strings.Repeat("  ", depth) + at + " " + kindName(s.Kind) + " " + s.Name
			if s.ContainerName != "" {
				l += " (in " + s.ContainerName + ")"
			}
			lines = append(lines, l)
			if err := walk(s.Children, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(syms, 0); err != nil {
		return "", err
	}
	if len(lines) > maxSymbols {
		n := len(lines)
		lines = append(lines[:maxSymbols], fmt.Sprintf("... and %d more (%d in all)", n-maxSymbols, n))
	}
	return strings.Join(lines, "\n"), nil
}
