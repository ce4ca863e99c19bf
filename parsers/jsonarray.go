package parsers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
)

// formatJSON is the json format (formats, parser.go).
var formatJSON = Format{
	Name:     "json",
	Doc:      "a JSON array of diagnostics {path|file|filename, line, column|col, …, severity, code, source, message}, or lsp-hook --format json",
	Unit:     diag.UnitCodePoints,
	Parser:   ParserFunc(ParseJSONArray),
	Detect:   detectJSONArray,
	Priority: 10,
}

// ParseJSONArray reads diagnostics written as plain JSON, in one of two
// shapes:
//
//   - an array of diagnostic objects, as many scripts and small tools
//     print: [{"file": "a.py", "line": 3, "col": 1, "severity": "error",
//     "message": "…"}];
//   - the document `lsp-hook diagnose --format json` writes
//     (diag.JSONReport): {"files": [{"path", "rel", "diagnostics": […]}],
//     …}, where a diagnostic without a path takes its file's.
//
// A diagnostic object has message (a string, required) and any of: path,
// file or filename (the first present; a string); line; column or col;
// end_line or endLine; end_column or endColumn (1-based integers, the end
// exclusive, 0 or absent when unknown); severity, a name (error, err,
// fatal; warning, warn; info, information, note, notice; hint) in any case,
// or an LSP DiagnosticSeverity number 1–4, absent meaning error; code, a
// string or a number; source, a string. Other keys are ignored; a known key
// of another JSON type, an unknown severity or a negative position is an
// error naming the diagnostic's index. Columns are taken as characters
// (code points), as lsp-hook writes them.
func ParseJSONArray(r io.Reader) ([]diag.Diagnostic, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading JSON diagnostics: %w", err)
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, nil
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("parsing JSON diagnostics: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("parsing JSON diagnostics: data after the document at byte %d", dec.InputOffset())
	}
	switch doc := doc.(type) {
	case []any:
		return jsonArrayDiagnostics(doc, "")
	case map[string]any:
		files, ok := doc["files"].([]any)
		if !ok {
			return nil, fmt.Errorf("parsing JSON diagnostics: an object without a \"files\" array (want an array of diagnostics or lsp-hook's {\"files\": […]})")
		}
		var out []diag.Diagnostic
		for i, f := range files {
			fo, ok := f.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("parsing JSON diagnostics: files[%d] is not an object", i)
			}
			path, _ := fo["path"].(string)
			list, ok := fo["diagnostics"].([]any)
			if !ok && fo["diagnostics"] != nil {
				return nil, fmt.Errorf("parsing JSON diagnostics: files[%d].diagnostics is not an array", i)
			}
			ds, err := jsonArrayDiagnostics(list, path)
			if err != nil {
				return nil, fmt.Errorf("files[%d]: %w", i, err)
			}
			out = append(out, ds...)
		}
		return out, nil
	}
	return nil, fmt.Errorf("parsing JSON diagnostics: want an array or an object, got %.40s", b)
}

// jsonArrayDiagnostics converts a list of diagnostic objects; path is the
// default for those without one.
func jsonArrayDiagnostics(list []any, path string) ([]diag.Diagnostic, error) {
	out := make([]diag.Diagnostic, 0, len(list))
	for i, item := range list {
		o, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("parsing JSON diagnostics: diagnostic %d is not an object", i)
		}
		d, err := jsonArrayDiagnostic(o, path)
		if err != nil {
			return nil, fmt.Errorf("parsing JSON diagnostics: diagnostic %d: %w", i, err)
		}
		out = append(out, d)
	}
	return out, nil
}

// jsonArrayDiagnostic converts one diagnostic object (see ParseJSONArray).
func jsonArrayDiagnostic(o map[string]any, path string) (d diag.Diagnostic, err error) {
	str := func(keys ...string) (string, error) {
		for _, k := range keys {
			if v, ok := o[k]; ok && v != nil {
				s, ok := v.(string)
				if !ok {
					return "", fmt.Errorf("%q is %v, not a string", k, v)
				}
				return s, nil
			}
		}
		return "", nil
	}
	num := func(keys ...string) (int, error) {
		for _, k := range keys {
			if v, ok := o[k]; ok && v != nil {
				n, ok := v.(json.Number)
				i, err := n.Int64()
				if !ok || err != nil || i < 0 || i > 1<<31 {
					return 0, fmt.Errorf("%q is %v, not a line or column number", k, v)
				}
				return int(i), nil
			}
		}
		return 0, nil
	}
	if _, ok := o["message"].(string); !ok {
		return d, fmt.Errorf("no \"message\" string")
	}
	d.Message, _ = str("message")
	if d.Path, err = str("path", "file", "filename"); err != nil {
		return d, err
	}
	if d.Path == "" {
		d.Path = path
	}
	if d.Line, err = num("line"); err != nil {
		return d, err
	}
	if d.Column, err = num("column", "col"); err != nil {
		return d, err
	}
	if d.EndLine, err = num("end_line", "endLine"); err != nil {
		return d, err
	}
	if d.EndColumn, err = num("end_column", "endColumn"); err != nil {
		return d, err
	}
	if d.Source, err = str("source"); err != nil {
		return d, err
	}
	switch c := o["code"].(type) {
	case nil:
	case string:
		d.Code = c
	case json.Number:
		d.Code = c.String()
	default:
		return d, fmt.Errorf("\"code\" is %v, not a string or number", c)
	}
	d.Severity, err = jsonArraySeverity(o["severity"])
	return d, err
}

// jsonArraySeverity maps a severity name or LSP number; absent is error.
func jsonArraySeverity(v any) (diag.Severity, error) {
	switch v := v.(type) {
	case nil:
		return diag.SeverityError, nil
	case json.Number:
		if n, err := v.Int64(); err == nil && n >= 1 && n <= 4 {
			return diag.Severity(n), nil
		}
	case string:
		switch strings.ToLower(v) {
		case "fatal":
			return diag.SeverityError, nil
		case "note", "notice":
			return diag.SeverityInfo, nil
		}
		if s, err := diag.ParseSeverity(v); err == nil {
			return s, nil
		}
	}
	return 0, fmt.Errorf("unknown severity %v (want error, warning, info, hint or 1–4)", v)
}

// detectJSONArray accepts lsp-hook's {"files": …} document, and an array
// whose first element has "message" and one of "path", "file" or
// "filename".
func detectJSONArray(sample []byte) bool {
	open, keys := interchangeKeys(sample)
	switch open {
	case '{':
		return keys["files"]
	case '[':
		return keys["message"] && (keys["path"] || keys["file"] || keys["filename"])
	}
	return false
}

// interchangeKeys sniffs the start of a JSON document: open is its first
// byte after white space and a byte order mark ('{', '[' or another), and
// keys the names of the top-level object's members (for '{') or of the
// first array element's (for '['), as far as sample holds them. A member
// whose value is cut off by the end of the sample is still listed.
func interchangeKeys(sample []byte) (open byte, keys map[string]bool) {
	s := bytes.TrimLeft(bytes.TrimPrefix(bytes.TrimLeft(sample, " \t\r\n"), []byte("\ufeff")), " \t\r\n")
	if len(s) == 0 {
		return 0, nil
	}
	open, keys = s[0], map[string]bool{}
	dec := json.NewDecoder(bytes.NewReader(s))
	if _, err := dec.Token(); err != nil { // the opening '{' or '['
		return open, keys
	}
	if open == '[' {
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return open, keys
		}
	} else if open != '{' {
		return open, keys
	}
	for dec.More() {
		t, err := dec.Token()
		name, ok := t.(string)
		if err != nil || !ok {
			break
		}
		keys[name] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			break
		}
	}
	return open, keys
}
