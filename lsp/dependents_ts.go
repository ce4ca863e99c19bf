package lsp

import (
	"bytes"
	"path"
	"strings"
)

// JavaScript and TypeScript module specifiers (ECMAScript "Imports",
// CommonJS require, TypeScript's module resolution: typescriptlang.org
// docs/handbook/modules/reference.html, "Relative file path resolution"
// and "Directory modules"), for ImportIndex: see dependents.go for what
// is and is not followed.

// jsRules are JavaScript's and TypeScript's import rules.
type jsRules struct{}

var _ importRules = jsRules{}

// jsKeywords are the words a module specifier string follows: `… from
// './m'`, `import './m'`, `import('./m')`, `require('./m')`.
var jsKeywords = [][]byte{[]byte("from"), []byte("import"), []byte("require")}

// jsExtensions are the file extensions TypeScript resolves a specifier to,
// declaration files first so that "x.d.ts" is cut whole.
var jsExtensions = []string{".d.ts", ".d.mts", ".d.cts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}

// parse finds every string literal that follows one of jsKeywords as a
// whole word, after spaces and, for import and require, an opening
// parenthesis: the specifiers of static and dynamic imports, re-exports
// and require calls, wherever they are in the file. Only relative ones are
// kept. Template literals count when they hold no substitution.
func (jsRules) parse(text []byte) []importRef {
	var refs []importRef
	for _, kw := range jsKeywords {
		for i := 0; ; {
			j := bytes.Index(text[i:], kw)
			if j < 0 {
				break
			}
			at := i + j
			i = at + len(kw)
			if at > 0 && jsWordByte(text[at-1]) || i < len(text) && jsWordByte(text[i]) {
				continue
			}
			if spec, ok := jsSpecifier(text[i:], kw[0] != 'f'); ok && jsRelative(spec) {
				refs = append(refs, importRef{path: spec})
			}
		}
	}
	return refs
}

// jsWordByte reports whether b can be part of an identifier (or a property
// access: "x.require(" is no require call).
func jsWordByte(b byte) bool {
	return b == '_' || b == '$' || b == '.' || b >= 0x80 ||
		(b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
}

// jsSpecifier reads the string literal at the start of text, after spaces
// and, when call is set, one '(' with spaces around it.
func jsSpecifier(text []byte, call bool) (string, bool) {
	text = bytes.TrimLeft(text, " \t\r\n")
	if call && len(text) > 0 && text[0] == '(' {
		text = bytes.TrimLeft(text[1:], " \t\r\n")
	}
	if len(text) == 0 || (text[0] != '\'' && text[0] != '"' && text[0] != '`') {
		return "", false
	}
	quote := text[0]
	end := bytes.IndexByte(text[1:], quote)
	if end <= 0 {
		return "", false
	}
	spec := text[1 : 1+end]
	if bytes.ContainsAny(spec, "\r\n\\") || (quote == '`' && bytes.Contains(spec, []byte("${"))) {
		return "", false
	}
	return string(spec), true
}

// jsRelative reports whether a specifier is a relative path ("./m",
// "../m", "." or ".."): only those name files of the project.
func jsRelative(spec string) bool {
	return spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../")
}

// names reports whether the relative specifier ref, in importer, can
// resolve to target: the specifier's path with target's extension added
// or its own script extension swapped for it (a written ".js" names the
// ".ts" file too), or the specifier's directory when target is its
// index file.
func (jsRules) names(_ *depQuery, importer string, ref importRef, target string) bool {
	p := path.Join(path.Dir(importer), ref.path)
	if p == target || strings.HasPrefix(p, "../") {
		return p == target
	}
	stem := jsStem(target)
	if stem == p || stem == jsStem(p) {
		return true
	}
	return path.Base(stem) == "index" && path.Dir(stem) == p
}

// jsStem returns a path without its script extension (jsExtensions), or
// the path itself when it has none.
func jsStem(p string) string {
	for _, ext := range jsExtensions {
		if s, ok := strings.CutSuffix(p, ext); ok && s != "" && !strings.HasSuffix(s, "/") {
			return s
		}
	}
	return p
}
