package lsp

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"

	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// C, C++ and Objective-C includes (C17 6.10.2 "Source file inclusion"; the
// search order is GCC's and clang's, "Search Path" in the GCC manual:
// "…" in the including file's directory, then -iquote, then -I; <…> in -I
// only), for ImportIndex: see dependents.go for what is and is not
// followed.

// cRules are the C family's include rules.
type cRules struct{}

var _ importRules = cRules{}

// compileFlags is clangd's flags file: one compiler argument per line,
// for every file in its directory and below (clangd.llvm.org/installation,
// "compile_flags.txt").
const compileFlags = "compile_flags.txt"

// parse finds the #include, #include_next and #import lines of a file:
// '#' first on its line after spaces, then the directive, then "name" or
// <name>.
func (cRules) parse(text []byte) []importRef {
	var refs []importRef
	for len(text) > 0 {
		var line []byte
		line, text = cutLine(text)
		line = bytes.TrimLeft(line, " \t")
		if len(line) == 0 || line[0] != '#' {
			continue
		}
		if ref, ok := cDirective(line[1:]); ok {
			refs = append(refs, ref)
		}
	}
	return refs
}

// cDirective parses one line that starts with '#' (the '#' cut off): an
// include of "name" or <name>.
func cDirective(line []byte) (importRef, bool) {
	line = bytes.TrimLeft(line, " \t")
	var rest []byte
	for _, kw := range []string{"include_next", "include", "import"} {
		if r, ok := bytes.CutPrefix(line, []byte(kw)); ok {
			rest = r
			break
		}
	}
	if rest == nil {
		return importRef{}, false
	}
	rest = bytes.TrimLeft(rest, " \t")
	if len(rest) < 3 {
		return importRef{}, false
	}
	closer := byte('"')
	if rest[0] == '<' {
		closer = '>'
	} else if rest[0] != '"' {
		return importRef{}, false
	}
	end := bytes.IndexByte(rest[1:], closer)
	if end <= 0 || bytes.IndexByte(rest[1:1+end], '\r') >= 0 {
		return importRef{}, false
	}
	return importRef{path: string(rest[1 : 1+end]), angle: closer == '>'}, true
}

// names reports whether the include ref, in importer, can be target: a
// quoted name relative to importer's directory, or either kind relative to
// an include directory of importer's nearest compile_flags.txt.
func (cRules) names(q *depQuery, importer string, ref importRef, target string) bool {
	if path.Base(ref.path) != path.Base(target) {
		return false // the cheap test first
	}
	if !ref.angle && path.Join(path.Dir(importer), ref.path) == target {
		return true
	}
	for _, dir := range q.includeDirs(path.Dir(importer)) {
		if path.Join(dir, ref.path) == target {
			return true
		}
	}
	return false
}

// includeDirs returns the include directories (-I, -iquote, -isystem,
// root-relative) of the compile_flags.txt nearest to dir, root-relative,
// reading each flags file once per query.
func (q *depQuery) includeDirs(dir string) []string {
	for d := dir; ; d = path.Dir(d) {
		if q.flagDirs[d] {
			if q.includes == nil {
				q.includes = make(map[string][]string)
			}
			dirs, ok := q.includes[d]
			if !ok {
				dirs = q.readFlags(d)
				q.includes[d] = dirs
			}
			return dirs
		}
		if d == "." {
			return nil
		}
	}
}

// readFlags returns the include directories of dir's compile_flags.txt,
// root-relative; those outside the root are left out (nothing there is a
// dependent's target). An unreadable file has none.
func (q *depQuery) readFlags(dir string) []string {
	text, err := os.ReadFile(filepath.Join(q.root, filepath.FromSlash(dir), compileFlags))
	if err != nil {
		return nil
	}
	var out []string
	lines := strings.Split(string(text), "\n")
	for i := 0; i < len(lines); i++ {
		arg := strings.TrimSpace(lines[i])
		for _, flag := range []string{"-iquote", "-isystem", "-I"} {
			v, ok := strings.CutPrefix(arg, flag)
			if !ok {
				continue
			}
			if v == "" && i+1 < len(lines) {
				i++
				v = strings.TrimSpace(lines[i])
			}
			if d, ok := q.flagDir(dir, v); ok {
				out = append(out, d)
			}
			break
		}
	}
	return out
}

// flagDir makes an include directory of the flags file in dir
// root-relative: a relative one is relative to dir (clangd runs the
// compile command there).
func (q *depQuery) flagDir(dir, v string) (string, bool) {
	if v == "" {
		return "", false
	}
	if filepath.IsAbs(v) {
		return ws.Rel(q.root, filepath.Clean(v))
	}
	d := path.Join(dir, filepath.ToSlash(v))
	return d, !strings.HasPrefix(d, "../") && d != ".."
}
