package parsers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
)

// formatGoVet is the go-vet format (formats, parser.go).
var formatGoVet = Format{
	Name:     "go-vet",
	Doc:      "go vet ./... (or go vet -json ./...), stdout and stderr together",
	Unit:     diag.UnitBytes,
	Parser:   ParserFunc(ParseGoVet),
	Detect:   detectGoVet,
	Priority: 35,
}

// ParseGoVet reads the output of `go vet`, plain or with -json; one parser
// reads both, since a -json run still prints its type errors as text.
//
// Plain output has a finding per line, "path:line:col: message" (or
// "path:line: message" for a position without a column, as a //line
// directive gives); `go vet -c=N` adds "N<tab>source" context lines, which
// are skipped. Go 1.25 and earlier head each package's findings with
// "# pkg"; Go 1.26 prints findings without a header. Findings are warnings
// (vet reports suspicious code, not invalid code), without a Code, since
// plain output does not name the analyzer. A package that does not
// type-check is reported by vet as "vet: path:line:col: message", an error;
// a "vet: message" line without a position is an error with an empty Path.
//
// The go command also prints the compiler's errors for a dependency it
// could not build, headed by "# pkg" and in the shape of findings. Go 1.26
// output tells them apart, since its findings have no header: when a
// finding lies outside any header's block (before any header, or in another
// directory than the block's first line), every line inside a block is a
// compile error. In older output, where findings have headers too, such
// errors read as warnings; use go-build for compile errors.
//
// With -json, findings are JSON objects, indented, one or more per run,
// interleaved with the text lines above (cmd/vet's unitchecker; the shape
// is x/tools' internal/analysis/driverutil.JSONTree):
//
//	{"pkg": {"analyzer": [{"posn": "file:line:col", "end": "file:line:col", "message": "…"}]}}
//
// Each is a warning with Code the analyzer's name; "end" (Go 1.26+), when
// after "posn" in the same file, is the exclusive end. An analyzer that
// failed is {"pkg": {"analyzer": {"error": "…"}}}, an error with an empty
// Path and the message "pkg: …". When the output holds a JSON object,
// every text position line is a type or compile error, since -json prints
// no finding as text.
//
// Path is as printed: relative to the directory go ran in for text, absolute
// in JSON and for findings in files named by //line directives. Line is
// 1-based, Column 1-based in bytes, 0 when absent. A tab-indented line
// continues the message above it. An object that does not decode, or an
// analyzer entry of another shape, is an error; so is output with text and
// no line go vet prints.
func ParseGoVet(r io.Reader) ([]diag.Diagnostic, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading go-vet output: %w", err)
	}
	var v vetOutput
	for rest := b; len(rest) > 0; {
		if rest[0] == '{' {
			n, err := v.object(rest)
			if err != nil {
				return nil, fmt.Errorf("parsing go-vet output: object at byte %d: %w", len(b)-len(rest), err)
			}
			rest = rest[n:]
			continue
		}
		line, after, _ := bytes.Cut(rest, []byte("\n"))
		rest = after
		v.line(string(bytes.TrimSuffix(line, []byte("\r"))))
	}
	switch {
	case v.sawJSON:
		for _, i := range v.textFindings {
			v.ds[i].Severity = diag.SeverityError
		}
	case v.blocks.headerless:
		for _, i := range v.inBlocks {
			v.ds[i].Severity = diag.SeverityError
		}
	}
	return v.result("go-vet", v.known)
}

// vetOutput is the state of ParseGoVet.
type vetOutput struct {
	goLines
	known   bool // a line or object go vet prints was seen
	sawJSON bool // a -json object was seen
	// textFindings indexes the diagnostics read from text lines without
	// "vet: ", which are errors when sawJSON.
	textFindings []int
	blocks       vetBlocks
	// inBlocks indexes the text findings inside a header's block, which
	// are compile errors when blocks.headerless.
	inBlocks []int
}

// vetBlocks follows "# pkg" headers and the findings under them, to tell
// Go 1.26 output (findings without headers, compile errors under them)
// from older output (everything under headers).
type vetBlocks struct {
	header     bool   // a header was seen
	hasDir     bool   // the current block has a finding
	dir        string // directory of the current block's first finding
	headerless bool   // a finding was seen outside any block
}

// startHeader records a "# pkg" line.
func (b *vetBlocks) startHeader() { b.header, b.hasDir, b.dir = true, false, "" }

// finding records a finding in path and reports whether it is inside the
// current header's block: under a header, in the directory of the block's
// first finding.
func (b *vetBlocks) finding(path string) bool {
	dir := path[:max(strings.LastIndexAny(path, `/\`), 0)]
	switch {
	case !b.header:
	case !b.hasDir:
		b.hasDir, b.dir = true, dir
		return true
	case dir == b.dir:
		return true
	}
	b.headerless = true
	return false
}

// vetContextLine matches a context line of `go vet -c=N`: the line number,
// a tab, and the source line.
var vetContextLine = lazyre.New(`^\d+\t`)

// line reads one text line.
func (v *vetOutput) line(s string) {
	if msg, ok := strings.CutPrefix(s, "vet: "); ok {
		v.known = true
		if _, ok := cutGoPosition(msg); ok {
			v.goLines.line("", msg, diag.SeverityError)
			return
		}
		delete(v.last, "")
		v.ds = append(v.ds, diag.Diagnostic{Severity: diag.SeverityError, Message: msg})
		return
	}
	if vetContextLine().MatchString(s) {
		v.known = true
		return
	}
	if strings.HasPrefix(s, "# ") {
		v.blocks.startHeader()
	}
	n := len(v.ds)
	v.known = v.goLines.line("", s, diag.SeverityWarning) || v.known
	if len(v.ds) > n {
		v.textFindings = append(v.textFindings, n)
		if v.blocks.finding(v.ds[n].Path) {
			v.inBlocks = append(v.inBlocks, n)
		}
	}
}

// vetJSONDiagnostic is one finding in `go vet -json` output (x/tools'
// internal/analysis/driverutil.JSONDiagnostic, formerly in
// go/analysis/internal/analysisflags). Category, related information and
// suggested fixes are not decoded.
type vetJSONDiagnostic struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

// object decodes the JSON object b starts with, adds its diagnostics, and
// returns its length in bytes.
func (v *vetOutput) object(b []byte) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	var tree map[string]map[string]json.RawMessage
	if err := dec.Decode(&tree); err != nil {
		return 0, err
	}
	v.known, v.sawJSON = true, true
	delete(v.last, "")
	for _, pkg := range slices.Sorted(maps.Keys(tree)) {
		for _, analyzer := range slices.Sorted(maps.Keys(tree[pkg])) {
			ds, err := vetAnalyzerDiagnostics(pkg, analyzer, tree[pkg][analyzer])
			if err != nil {
				return 0, fmt.Errorf("package %s analyzer %s: %w", pkg, analyzer, err)
			}
			v.ds = append(v.ds, ds...)
		}
	}
	return int(dec.InputOffset()), nil
}

// vetAnalyzerDiagnostics decodes one analyzer's entry for pkg: a list of
// findings, or an {"error": "…"} object for an analyzer that failed, whose
// message is prefixed with pkg since it has no path.
func vetAnalyzerDiagnostics(pkg, analyzer string, raw json.RawMessage) ([]diag.Diagnostic, error) {
	switch bytes.TrimLeft(raw, " \t\r\n")[0] {
	case '[':
		var list []vetJSONDiagnostic
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, err
		}
		ds := make([]diag.Diagnostic, 0, len(list))
		for _, f := range list {
			ds = append(ds, f.diagnostic(analyzer))
		}
		return ds, nil
	case '{':
		var e struct {
			Error *string `json:"error"`
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil || e.Error == nil {
			return nil, fmt.Errorf("want a list of findings or an {\"error\"} object, got %.80s", raw)
		}
		return []diag.Diagnostic{{Severity: diag.SeverityError, Code: analyzer, Message: pkg + ": " + *e.Error}}, nil
	}
	return nil, fmt.Errorf("want a list of findings or an {\"error\"} object, got %.80s", raw)
}

// diagnostic converts one -json finding of analyzer.
func (f vetJSONDiagnostic) diagnostic(analyzer string) diag.Diagnostic {
	path, line, col := splitVetPosn(f.Posn)
	d := diag.Diagnostic{Path: path, Line: line, Column: col, Severity: diag.SeverityWarning, Code: analyzer, Message: f.Message}
	if f.End == "" {
		return d
	}
	endPath, endLine, endCol := splitVetPosn(f.End)
	if endPath == path && endCol > 0 && (endLine > line || endLine == line && endCol > col) {
		d.EndLine, d.EndColumn = endLine, endCol
	}
	return d
}

// splitVetPosn splits a token.Position as go vet -json prints it:
// "file:line:col", "file:line" (no column), "file" (no line) or "-" (no
// position at all, an empty path).
func splitVetPosn(s string) (path string, line, col int) {
	if s == "-" {
		return "", 0, 0
	}
	number := func(s string) (int, bool) {
		v, n := goDigits(s)
		return v, n > 0 && n == len(s)
	}
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, 0
	}
	last, ok := number(s[i+1:])
	if !ok {
		return s, 0, 0
	}
	j := strings.LastIndexByte(s[:i], ':')
	if j >= 0 {
		if l, ok := number(s[j+1 : i]); ok {
			return s[:j], l, last
		}
	}
	return s[:i], last, 0
}

// goVetSniff finds what only go vet prints: a "vet: " type error, a -json
// object's first lines, or a -c=N context line after a finding.
var goVetSniff = lazyre.New(`(?m)^vet: [^\s:][^\n]*:\d+(?::\d+)?: ` +
	`|^\{\r?\n\t"[^"\n]+": \{\r?\n\t\t"\w+": [\[{]` +
	`|^[^\s:][^\n]*\.go:\d+:\d+: [^\n]*\n\d+\t`)

// detectGoVet accepts a sample with a line only go vet prints (see
// goVetSniff), or with a finding in a .go file outside any "# pkg" header's
// block (see vetBlocks): Go 1.26 prints findings without a header, while go
// build prints every compile error under its package's header. A line
// followed by a tab-indented one has a compile or load error's shape and
// does not count.
func detectGoVet(sample []byte) bool {
	if goVetSniff().Match(sample) {
		return true
	}
	lines := strings.Split(string(sample), "\n")
	var b vetBlocks
	for i, l := range lines {
		if strings.HasPrefix(l, "# ") {
			b.startHeader()
			continue
		}
		if strings.HasPrefix(l, "{") { // JSON: go build -json, or another tool's
			continue
		}
		p, ok := cutGoPosition(strings.TrimSuffix(l, "\r"))
		if !ok || !strings.HasSuffix(p.path, ".go") || i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
			continue
		}
		if !b.finding(p.path) {
			return true
		}
	}
	return false
}
