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

// Parse limits: the largest file, in bytes, the YAML and TOML validators
// hand to their libraries, whose trees take many times the input in memory
// (peak Go heap measured on 1, 2 and 15 MiB files of several shapes: yaml.v3
// 6 times the input for long text values, 38 for a list of small mappings,
// 95 for a flow list of numbers; BurntSushi/toml 20 for tables, 39 for one
// key per line). Each keeps a check's peak heap under some 100 MiB whatever
// the content. A larger file gets only the checks that stream — encoding
// and control characters, and tab indentation in YAML — and Unchecked says
// so (the Partial interface). The JSON and JSONC scanners have no limit:
// they keep only the keys of the objects still open (about 3 times the
// input for one object of 15 MiB, nothing for arrays).
const (
	MaxYAMLParse = 1 << 20 // 1 MiB
	MaxTOMLParse = 2 << 20 // 2 MiB
)

// Partial is the optional interface of a validator that checks a file over
// its parse limit only in part (YAML and TOML: see MaxYAMLParse).
type Partial interface {
	// Unchecked returns what Validate leaves unchecked in src, for a note
	// such as "15.0 MiB of YAML not checked: larger than the 1 MiB YAML
	// limit (only its encoding and indentation tabs were)", or "" when it
	// checks src whole.
	Unchecked(src []byte) string
}

// unchecked is Partial.Unchecked for a format whose parse limit is limit
// bytes and whose streaming checks are streamed.
func unchecked(format string, src []byte, limit int, streamed string) string {
	if len(stripBOM(src)) <= limit {
		return ""
	}
	return fmt.Sprintf("%.1f MiB of %s not checked: larger than the %d MiB %s limit (only %s)",
		float64(len(src))/(1<<20), format, limit>>20, format, streamed)
}
