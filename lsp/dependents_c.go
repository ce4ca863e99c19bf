package lsp

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mattn/go-shellwords"

	"github.com/lsp-hook/lsp-hook/internal/safefile"
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
// an include directory of importer's nearest compile_flags.txt or
// compilation database (includeDirs).
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
// root-relative) of the compile_flags.txt nearest to dir, and those of
// the compilation database nearest to it (compileDBIncludes), reading
// each flags file once per query.
func (q *depQuery) includeDirs(dir string) []string {
	if q.includes == nil {
		q.includes = make(map[string][]string)
	}
	if dirs, ok := q.includes[dir]; ok {
		return dirs
	}
	var dirs []string
	for d := dir; ; d = path.Dir(d) {
		if q.flagDirs[d] {
			dirs = q.readFlags(d)
			break
		}
		if d == "." {
			break
		}
	}
	dirs = append(slices.Clip(dirs), q.compileDBIncludes(dir)...)
	q.includes[dir] = dirs
	return dirs
}

// compileDB is clang's JSON compilation database
// (clang.llvm.org/docs/JSONCompilationDatabase.html), which CMake
// (CMAKE_EXPORT_COMPILE_COMMANDS), Meson and Bear write: an array of
// {directory, file, arguments | command}.
const compileDB = "compile_commands.json"

// maxCompileDBSize bounds the compilation database read (64 MiB: a large
// tree's is tens of MiB).
const maxCompileDBSize = 64 << 20

// compileDBInfo is what a compilation database gave, as of its size and
// modification time: the include directories of all its commands,
// root-relative.
type compileDBInfo struct {
	size     int64
	modTime  time.Time
	includes []string
}

// compileDBIncludes returns the include directories of the compilation
// database clangd would use for a file in dir: the first of
// compile_commands.json and build/compile_commands.json found in dir or
// a parent up to the root (clangd.llvm.org/installation, "Project
// setup": CMake's build directory is looked in). They are those of every
// command in it, not only dir's files' (a header has no command of its
// own): more files may be taken as includers, none is missed. The
// database is read once until it changes (ImportIndex.compileDBs); a
// missing, unreadable or undecodable one gives none.
func (q *depQuery) compileDBIncludes(dir string) []string {
	for d := dir; ; d = path.Dir(d) {
		for _, rel := range []string{path.Join(d, compileDB), path.Join(d, "build", compileDB)} {
			if dirs, ok := q.readCompileDB(rel); ok {
				return dirs
			}
		}
		if d == "." {
			return nil
		}
	}
}

// readCompileDB returns the include directories of the compilation
// database at rel (root-relative), and whether there is one. What a
// database gave (none, when it cannot be read or decoded) is kept in
// q.compileDBs until its size or modification time changes.
func (q *depQuery) readCompileDB(rel string) ([]string, bool) {
	file := filepath.Join(q.root, filepath.FromSlash(rel))
	fi, err := os.Stat(file)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	if c, ok := q.compileDBs[rel]; ok && c.size == fi.Size() && c.modTime.Equal(fi.ModTime()) {
		return c.includes, true
	}
	dirs := compileDBIncludeDirs(q.root, file)
	if q.compileDBs == nil {
		q.compileDBs = make(map[string]compileDBInfo)
	}
	q.compileDBs[rel] = compileDBInfo{size: fi.Size(), modTime: fi.ModTime(), includes: dirs}
	return dirs, true
}

// compileDBIncludeDirs reads the compilation database file and returns
// the include directories of all its commands that lie under root,
// root-relative, each once; none when it cannot be read or decoded.
func compileDBIncludeDirs(root, file string) []string {
	text, err := safefile.ReadFollow(file, maxCompileDBSize)
	if err != nil {
		return nil
	}
	var entries []struct {
		Directory string   `json:"directory"`
		Arguments []string `json:"arguments"`
		Command   string   `json:"command"`
	}
	if json.Unmarshal(text, &entries) != nil {
		return nil
	}
	seen := make(map[string]bool)
	var dirs []string
	for _, e := range entries {
		if !filepath.IsAbs(e.Directory) { // the format wants it absolute; taken as the database's own directory's
			e.Directory = filepath.Join(filepath.Dir(file), e.Directory)
		}
		args := e.Arguments
		if len(args) == 0 {
			if args, err = shellwords.Parse(e.Command); err != nil {
				continue
			}
		}
		for _, inc := range includeArgs(args) {
			if !filepath.IsAbs(inc) {
				inc = filepath.Join(e.Directory, inc)
			}
			if d, ok := ws.Rel(root, filepath.Clean(inc)); ok && !seen[d] {
				seen[d] = true
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// includeArgs returns the include directories a compiler command line
// names: -I, -iquote, -isystem and -idirafter, each joined to its value
// or followed by it (GCC's "Options for Directory Search"), and clang's
// --include-directory=.
func includeArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if v, ok := strings.CutPrefix(a, "--include-directory="); ok {
			out = append(out, v)
			continue
		}
		for _, flag := range []string{"-iquote", "-isystem", "-idirafter", "-I"} {
			v, ok := strings.CutPrefix(a, flag)
			if !ok {
				continue
			}
			if v == "" && i+1 < len(args) {
				i++
				v = args[i]
			}
			if v != "" {
				out = append(out, v)
			}
			break
		}
	}
	return out
}

// readFlags returns the include directories of dir's compile_flags.txt
// (one argument per line, includeArgs' flags), root-relative; those
// outside the root are left out (nothing there is a dependent's target).
// An unreadable file has none.
func (q *depQuery) readFlags(dir string) []string {
	text, err := os.ReadFile(filepath.Join(q.root, filepath.FromSlash(dir), compileFlags))
	if err != nil {
		return nil
	}
	args := strings.Split(string(text), "\n")
	for i := range args {
		args[i] = strings.TrimSpace(args[i])
	}
	var out []string
	for _, v := range includeArgs(args) {
		if d, ok := q.flagDir(dir, v); ok {
			out = append(out, d)
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
	return d, !aboveRoot(d)
}
