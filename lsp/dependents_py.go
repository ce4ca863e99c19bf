package lsp

import (
	"bytes"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lsp-hook/lsp-hook/config"
)

// Python's import statements (The Python Language Reference, 7.11 "The
// import statement"), for ImportIndex: see dependents.go for what is and
// is not followed.

// pyRules are Python's import rules.
type pyRules struct{}

var _ importRules = pyRules{}

// pyMaxStatementLines bounds how many lines one parenthesized or
// backslash-continued import statement may span before it is cut.
const pyMaxStatementLines = 200

// parse finds the import statements of a Python file: lines whose first
// word is import or from, with their parenthesized or backslash-continued
// rest, comments left out, and statements after a ';' on the same line.
func (pyRules) parse(text []byte) []importRef {
	var refs []importRef
	for len(text) > 0 {
		var line []byte
		line, text = cutLine(text)
		head := bytes.TrimLeft(line, " \t")
		if !bytes.HasPrefix(head, []byte("import")) && !bytes.HasPrefix(head, []byte("from")) {
			continue
		}
		stmt := string(stripPyComment(head))
		for n := 0; n < pyMaxStatementLines && len(text) > 0 && pyContinues(stmt); n++ {
			line, text = cutLine(text)
			stmt = strings.TrimSuffix(stmt, "\\") + " " + string(stripPyComment(line))
		}
		for part := range strings.SplitSeq(stmt, ";") {
			refs = append(refs, parsePyStatement(strings.TrimSpace(part))...)
		}
	}
	return refs
}

// cutLine splits text after its first line, dropping the newline (and a
// carriage return before it).
func cutLine(text []byte) (line, rest []byte) {
	i := bytes.IndexByte(text, '\n')
	if i < 0 {
		return bytes.TrimSuffix(text, []byte("\r")), nil
	}
	return bytes.TrimSuffix(text[:i], []byte("\r")), text[i+1:]
}

// stripPyComment cuts a line at its '#' comment and trims trailing space.
func stripPyComment(line []byte) []byte {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	return bytes.TrimRight(line, " \t")
}

// pyContinues reports whether an import statement goes on on the next
// line: it ends in a backslash, or opens a parenthesis it has not closed.
func pyContinues(stmt string) bool {
	return strings.HasSuffix(stmt, "\\") || strings.Count(stmt, "(") > strings.Count(stmt, ")")
}

// parsePyStatement parses one statement: `import a.b [as c], d` or
// `from [dots]a.b import (x [as y], z)`. Anything else gives nothing.
func parsePyStatement(s string) []importRef {
	if rest, ok := cutWord(s, "import"); ok {
		var refs []importRef
		for item := range strings.SplitSeq(rest, ",") {
			if f := strings.Fields(item); len(f) > 0 && pyDotted(f[0], false) {
				refs = append(refs, importRef{path: f[0]})
			}
		}
		return refs
	}
	rest, ok := cutWord(s, "from")
	if !ok {
		return nil
	}
	module, names, ok := cutPyImport(rest)
	if !ok || module == "" || !pyDotted(module, true) {
		return nil
	}
	ref := importRef{path: module}
	names = strings.NewReplacer("(", " ", ")", " ", "\\", " ").Replace(names)
	for item := range strings.SplitSeq(names, ",") {
		if f := strings.Fields(item); len(f) > 0 && pyDotted(f[0], false) && !strings.Contains(f[0], ".") {
			ref.names = append(ref.names, f[0])
		}
	}
	return []importRef{ref}
}

// cutWord returns what follows word at the start of s, when word is a whole
// word there (followed by a space, a tab, a '.' or a '(').
func cutWord(s, word string) (string, bool) {
	rest, ok := strings.CutPrefix(s, word)
	if !ok || rest == "" || !strings.ContainsRune(" \t.(", rune(rest[0])) {
		return "", false
	}
	return rest, true
}

// cutPyImport splits the rest of a from-statement at its import keyword:
// the module (spaces removed, so ". models" reads ".models") and the names.
// The keyword may follow the dots directly: `from .import x`.
func cutPyImport(rest string) (module, names string, ok bool) {
	for i := 0; i+len("import") <= len(rest); i++ {
		if !strings.HasPrefix(rest[i:], "import") {
			continue
		}
		before := rest[:i]
		after := rest[i+len("import"):]
		if (i == 0 || strings.ContainsRune(" \t.", rune(before[len(before)-1]))) &&
			(after == "" || strings.ContainsRune(" \t(", rune(after[0]))) {
			return strings.Join(strings.Fields(before), ""), after, true
		}
	}
	return "", "", false
}

// pyDotted reports whether s is a dotted module name ("a.b"), or, with
// dots, one led by relative dots ("..a.b", ".").
func pyDotted(s string, dots bool) bool {
	if dots {
		s = strings.TrimLeft(s, ".")
		if s == "" {
			return true
		}
	}
	for part := range strings.SplitSeq(s, ".") {
		if !pyIdentifier(part) {
			return false
		}
	}
	return true
}

// pyIdentifier reports whether s can be a Python identifier: letters,
// digits and '_', not led by a digit; any non-ASCII letter is taken as a
// letter (PEP 3131) without checking its category.
func pyIdentifier(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, r := range s {
		ok := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') ||
			(r >= utf8.RuneSelf && r != utf8.RuneError)
		if !ok {
			return false
		}
	}
	return true
}

// names reports whether ref, in importer, can name the module target: by
// target's module path (pyModulePath), which is the imported module, or
// the module and one of the imported names (a submodule), under a base
// directory: for a relative import exactly the one its dots reach from
// importer's directory; for an absolute one the root, root/src, or
// importer's directory or one of its parents, or a Python project's
// directory or its src (q.pyRoots). It allocates nothing: it runs for
// every import of every file on each call.
func (pyRules) names(q *depQuery, importer string, ref importRef, target string) bool {
	key := pyModulePath(target)
	if key == "" {
		return false
	}
	dots := len(ref.path) - len(strings.TrimLeft(ref.path, "."))
	module := ref.path[dots:]
	dir := path.Dir(importer)
	allowed := func(base string) bool {
		return base == "" || base == "src" || dir == base || strings.HasPrefix(dir, base) && dir[len(base)] == '/' || q.pyRoots[base]
	}
	if dots > 0 {
		for range dots - 1 {
			if dir == "." {
				return false // above the root
			}
			dir = path.Dir(dir)
		}
		want := dir
		if want == "." {
			want = ""
		}
		allowed = func(base string) bool { return base == want }
	}
	if module != "" || dots > 0 {
		if base, ok := cutPyModule(key, module, ""); ok && allowed(base) {
			return true
		}
	}
	for _, n := range ref.names {
		if base, ok := cutPyModule(key, module, n); ok && allowed(base) {
			return true
		}
	}
	return false
}

// cutPyModule cuts the module path key ("a/pkg/models") where it ends in
// the dotted module ("pkg.models", or "" for none) followed by the name n
// ("" for none), and returns the directory before them ("a"; "" for the
// root). ok is false when key does not end so, segment by segment.
func cutPyModule(key, module, n string) (base string, ok bool) {
	base = key
	if n != "" {
		if base, ok = cutLastSegment(base, n); !ok {
			return "", false
		}
	}
	for module != "" {
		i := strings.LastIndexByte(module, '.')
		if base, ok = cutLastSegment(base, module[i+1:]); !ok {
			return "", false
		}
		module = module[:max(i, 0)]
	}
	return base, true
}

// cutLastSegment cuts the last segment of the slash path p when it is seg,
// returning what precedes it ("" when seg was all of p).
func cutLastSegment(p, seg string) (string, bool) {
	switch {
	case p == seg:
		return "", true
	case len(p) > len(seg) && p[len(p)-len(seg)-1] == '/' && p[len(p)-len(seg):] == seg:
		return p[:len(p)-len(seg)-1], true
	}
	return "", false
}

// pyModulePath returns the slash path of the module a Python file is
// ("pkg/models" for pkg/models.py or .pyi, "pkg" for pkg/__init__.py), or
// "" for the root's __init__.py, which is no module of the root.
func pyModulePath(file string) string {
	key := strings.TrimSuffix(strings.TrimSuffix(file, ".py"), ".pyi")
	if path.Base(key) == "__init__" {
		key = path.Dir(key)
	}
	if key == "." {
		return ""
	}
	return key
}

// pyProjectFiles are the files that make a directory a Python project
// (PEP 518's pyproject.toml, setuptools' setup.py and setup.cfg): its
// modules are imported from it or from its src directory.
var pyProjectFiles = []string{"pyproject.toml", "setup.py", "setup.cfg"}

// pyrightRoots adds to roots the directories pyright's configuration at
// rel (root-relative: a pyrightconfig.json, JSONC, or a pyproject.toml's
// [tool.pyright]) has it import from: extraPaths, and each
// executionEnvironments entry's root and extraPaths (pyright's
// docs/configuration.md), relative to the file's directory, as
// root-relative slash paths ("" for the root). Those outside the root, and
// a file that cannot be read or decoded (at most maxManifestSize), add
// nothing.
func pyrightRoots(root, rel string, roots map[string]bool) {
	type env struct {
		Root       string   `json:"root" toml:"root"`
		ExtraPaths []string `json:"extraPaths" toml:"extraPaths"`
	}
	type settings struct {
		ExtraPaths   []string `json:"extraPaths" toml:"extraPaths"`
		Environments []env    `json:"executionEnvironments" toml:"executionEnvironments"`
	}
	var cfg settings
	file := filepath.Join(root, filepath.FromSlash(rel))
	if path.Base(rel) == "pyproject.toml" {
		var doc struct {
			Tool struct {
				Pyright settings `toml:"pyright"`
			} `toml:"tool"`
		}
		if config.DecodeFile(file, maxManifestSize, &doc) != nil {
			return
		}
		cfg = doc.Tool.Pyright
	} else if config.DecodeFile(file, maxManifestSize, &cfg) != nil {
		return
	}
	dirs := slices.Clone(cfg.ExtraPaths)
	for _, e := range cfg.Environments {
		dirs = append(dirs, e.Root)
		dirs = append(dirs, e.ExtraPaths...)
	}
	base := path.Dir(rel)
	for _, d := range dirs {
		if d == "" || filepath.IsAbs(d) {
			continue
		}
		p := path.Join(base, filepath.ToSlash(d))
		if aboveRoot(p) {
			continue
		}
		roots[rootKey(p)] = true
	}
}

// rootKey is a root-relative slash directory as pyRoots keys it: "" for
// the root itself (".").
func rootKey(dir string) string {
	if dir == "." {
		return ""
	}
	return dir
}
