package lsp

import (
	"bytes"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lsp-hook/lsp-hook/config"
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
// and require calls, wherever they are in the file. Relative ones are
// kept, and bare ones that could name a package (not "node:fs", a URL or
// an absolute path). Template literals count when they hold no
// substitution.
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
			if spec, ok := jsSpecifier(text[i:], kw[0] != 'f'); ok {
				if pkg := jsPackageName(spec); pkg != "" || jsRelative(spec) {
					refs = append(refs, importRef{path: spec, pkg: pkg})
				}
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

// names reports whether ref, in importer, can resolve to target. A
// relative specifier: its path with target's extension added or its own
// script extension swapped for it (a written ".js" names the ".ts" file
// too), or its directory when target is its index file. A bare one: when
// it names a package of the workspace (q.jsPackages), any file in that
// package's directory — its entry points and export map are not read,
// so every file of it counts.
func (jsRules) names(q *depQuery, importer string, ref importRef, target string) bool {
	if !jsRelative(ref.path) {
		dir, ok := q.jsPackages[ref.pkg]
		return ok && (dir == "." || strings.HasPrefix(target, dir+"/"))
	}
	p := path.Join(path.Dir(importer), ref.path)
	if p == target || aboveRoot(p) {
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

// packageJSON is npm's package manifest (docs.npmjs.com,
// "package.json").
const packageJSON = "package.json"

// maxManifestSize bounds what jsPackages reads of a package.json.
const maxManifestSize = 1 << 20

// jsPackageName returns the package a bare specifier names: its first
// path segment, or its first two for a scoped name ("@acme/core" of
// "@acme/core/util"); "" for a relative or absolute path, a URL or a
// node: or other scheme, or a name npm would refuse (docs.npmjs.com,
// package.json "name": at most 214 characters, no leading dot or
// underscore).
func jsPackageName(spec string) string {
	if spec == "" || jsRelative(spec) || strings.HasPrefix(spec, "/") || strings.Contains(spec, ":") {
		return ""
	}
	parts := strings.SplitN(spec, "/", 3)
	name := parts[0]
	if strings.HasPrefix(name, "@") {
		if len(parts) < 2 || len(name) == 1 || parts[1] == "" {
			return ""
		}
		name += "/" + parts[1]
	}
	if len(name) > 214 || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
		return ""
	}
	return name
}

// jsPackages returns the workspace's packages: for each of manifests
// (root-relative slash paths of package.json files outside skipped
// directories) that names itself ("name"), the name → the manifest's
// directory; then, for each of tsconfigs (tsconfig files, as isTSConfig),
// each exact key of compilerOptions.paths (no "*": Nx's mapping of a
// library's import name, "@acme/core": ["libs/core/src/index.ts"]) → the
// directory of its first target (the target itself when it has no script
// extension), relative to compilerOptions.baseUrl or else to the file's
// directory, as TypeScript resolves it. A file that cannot be read or
// decoded, or is larger than maxManifestSize, is left out; of two with
// one name, a manifest's wins, then the one nearer the root (then the
// first in path order). Wildcard paths ("@/*") are not followed: they
// map a project's own directories, whose importers tsserver's
// fileReferences finds.
func jsPackages(root string, manifests, tsconfigs []string) map[string]string {
	nearestFirst := func(a, b string) int {
		if d := strings.Count(a, "/") - strings.Count(b, "/"); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	}
	slices.SortFunc(manifests, nearestFirst)
	slices.SortFunc(tsconfigs, nearestFirst)
	out := make(map[string]string)
	for _, rel := range manifests {
		var m struct {
			Name string `json:"name"`
		}
		if config.DecodeFile(filepath.Join(root, filepath.FromSlash(rel)), maxManifestSize, &m) != nil || jsPackageName(m.Name) != m.Name {
			continue
		}
		if _, dup := out[m.Name]; !dup {
			out[m.Name] = path.Dir(rel)
		}
	}
	for _, rel := range tsconfigs {
		for name, dir := range tsconfigPaths(root, rel) {
			if _, dup := out[name]; !dup {
				out[name] = dir
			}
		}
	}
	return out
}

// isTSConfig reports whether a file name is a TypeScript or JavaScript
// project file: tsconfig.json, tsconfig.<anything>.json (Nx's
// tsconfig.base.json, tsconfig.app.json) or jsconfig.json.
func isTSConfig(base string) bool {
	return base == "jsconfig.json" || strings.HasPrefix(base, "tsconfig") && strings.HasSuffix(base, ".json")
}

// tsconfigPaths returns the exact (wildcard-free) keys of the
// compilerOptions.paths of the tsconfig file at rel (root-relative) that
// jsPackageName takes for package names, each → the root-relative
// directory of its first target inside the root (see jsPackages).
func tsconfigPaths(root, rel string) map[string]string {
	var c struct {
		CompilerOptions struct {
			BaseURL string              `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if config.DecodeFile(filepath.Join(root, filepath.FromSlash(rel)), maxManifestSize, &c) != nil {
		return nil
	}
	base := path.Join(path.Dir(rel), filepath.ToSlash(c.CompilerOptions.BaseURL))
	out := make(map[string]string)
	for name, targets := range c.CompilerOptions.Paths {
		if strings.Contains(name, "*") || jsPackageName(name) != name || len(targets) == 0 || strings.Contains(targets[0], "*") {
			continue
		}
		t := path.Join(base, filepath.ToSlash(targets[0]))
		if jsStem(t) != t {
			t = path.Dir(t)
		}
		if !aboveRoot(t) && !path.IsAbs(t) {
			out[name] = t
		}
	}
	return out
}
