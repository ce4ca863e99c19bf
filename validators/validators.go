package validators

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
)

// Kind names a built-in validator: "json", "jsonc", "yaml" or "toml", the
// names the config's `validators:` section uses.
type Kind string

// The built-in validators.
const (
	KindJSON  Kind = "json"  // strict JSON, RFC 8259
	KindJSONC Kind = "jsonc" // JSON with comments and trailing commas
	KindYAML  Kind = "yaml"  // YAML 1.2
	KindTOML  Kind = "toml"  // TOML 1.0
)

// KindOf returns the validator kind for path, judged by its base name and
// extension, case-insensitively, and false when no built-in validator
// applies:
//
//   - .jsonc, tsconfig*.json, jsconfig*.json, devcontainer.json,
//     .devcontainer.json and any *.json inside a .vscode directory → jsonc;
//   - any other .json, and .ipynb (a Jupyter notebook is a JSON document) → json;
//   - .yaml, .yml → yaml;
//   - .toml → toml.
func KindOf(path string) (Kind, bool) {
	base := strings.ToLower(filepath.Base(path))
	switch filepath.Ext(base) {
	case ".jsonc":
		return KindJSONC, true
	case ".json", ".ipynb":
		if isJSONCName(path, base) {
			return KindJSONC, true
		}
		return KindJSON, true
	case ".yaml", ".yml":
		return KindYAML, true
	case ".toml":
		return KindTOML, true
	}
	return "", false
}

// isJSONCName reports whether a .json file with lower-cased base name base is
// one that its tools read as JSONC.
func isJSONCName(path, base string) bool {
	if strings.HasPrefix(base, "tsconfig") || strings.HasPrefix(base, "jsconfig") ||
		base == "devcontainer.json" || base == ".devcontainer.json" {
		return true
	}
	for _, dir := range strings.Split(filepath.ToSlash(filepath.Dir(path)), "/") {
		if strings.EqualFold(dir, ".vscode") {
			return true
		}
	}
	return false
}

// Validator checks one file's content. src is the whole file; path only
// fills Diagnostic.Path (the caller passes it absolute). Diagnostics have
// 1-based lines and 1-based columns counted in Unicode code points; a valid
// file gives none. Validate never panics and keeps memory linear in len(src).
type Validator interface {
	Validate(path string, src []byte) []diag.Diagnostic
}

// For returns the validator for k, or nil for an unknown kind.
func For(k Kind) Validator {
	switch k {
	case KindJSON:
		return JSON{}
	case KindJSONC:
		return JSONC{}
	case KindYAML:
		return YAML{}
	case KindTOML:
		return TOML{}
	}
	return nil
}

// Validate validates src with the validator KindOf chooses for path. ok is
// false, and ds nil, when no built-in validator applies.
func Validate(path string, src []byte) (ds []diag.Diagnostic, ok bool) {
	k, ok := KindOf(path)
	if !ok {
		return nil, false
	}
	return For(k).Validate(path, src), true
}

// maxParseSize is the largest file, in bytes, handed to the YAML and TOML
// libraries. Their trees take some 20–25 times the input in memory and they
// parse at 10–15 MB/s, so a larger file gets only the checks that stream
// (encoding and control characters; tab indentation in YAML) plus an info
// diagnostic saying so. The JSON and JSONC scanners have no limit: they keep
// only the keys of the objects still open.
const maxParseSize = 16 << 20

// tooLarge is the info finding, at 1:1, for a file over maxParseSize.
func tooLarge(format string, size int) finding {
	return finding{end: -1, ref: -1, severity: diag.SeverityInfo,
		msg: fmt.Sprintf("%s syntax not checked: the file is %.1f MiB, over the validator's limit of %d MiB", format, float64(size)/(1<<20), maxParseSize>>20)}
}
