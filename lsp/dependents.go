package lsp

import (
	"context"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file finds the dependents of a change: the files under a server's
// root that import a changed file directly. Servers that diagnose open
// documents only (config.Server.OpenDependents: pyright, clangd,
// typescript-language-server) say nothing about a caller a change broke
// unless that caller is open, so a check opens the dependents too.
//
// The rules are the languages' own, read from the text without a parser
// and resolved without looking at the disk, so they over-approximate
// rather than miss (an import in a comment or a string counts; a file is
// taken as a dependent when any resolution the language allows could name
// the changed file):
//
//   - Python (dependents_py.go): `import a.b [as c]`, `from a.b import x`,
//     `from . import x`, `from .m import x`, `from .. import x`. An absolute
//     module is looked for under the root, under root/src (pyright's
//     automatic src layout), under each directory from the importing
//     file's up to the root (pyright's local-directory fallback), and
//     under each Python project's directory and its src (a directory
//     holding a pyproject.toml, setup.py or setup.cfg: the members of a uv
//     workspace, installed editable, import each other from there), and
//     under the directories pyright's configuration adds (extraPaths, and
//     executionEnvironments' roots and extraPaths, of pyrightconfig.json
//     or [tool.pyright]); a relative one from the importing file's
//     directory. `from P import n` names P and P.n (n may be a
//     submodule). Not followed: site-packages, `importlib`/`__import__`
//     with computed names; `import a.b` names a.b only, not the package a.
//   - JavaScript and TypeScript (dependents_ts.go): the string after
//     `from`, `import`, `import(` and `require(` (so `export … from` and
//     dynamic imports too), when it is relative ("./", "../"), resolved
//     against the importing file's directory with TypeScript's rules: the
//     name as is, with any of .ts .tsx .mts .cts .js .jsx .mjs .cjs (and
//     their .d.ts forms), a written .js/.jsx/.mjs/.cjs standing for the
//     TypeScript file too, or a directory's index.*. A bare specifier
//     ("@acme/core", "@acme/core/util") that names a package of the
//     workspace (a package.json's "name" under the root, outside
//     node_modules: npm, yarn and pnpm workspaces link them into
//     node_modules) names every file of that package's directory; other
//     bare specifiers ("react") and tsconfig paths are not followed. A
//     changed TypeScript file's dependents are also the files using what
//     it declares in the global scope (a script's declarations, `declare
//     global`, `declare module "m"`), which no import names
//     (dependents_globals.go).
//   - C, C++ and Objective-C (dependents_c.go): `#include "x.h"` relative to
//     the including file's directory, then to the include directories
//     (-I, -iquote, -isystem) of the nearest compile_flags.txt and of the
//     nearest compilation database (compile_commands.json, in a directory
//     or its build/, as clangd looks: every command's, a header having
//     none of its own); `#include <x.h>` in those directories only;
//     #import and #include_next alike. Not followed: macros that expand
//     to a name, a database .clangd names elsewhere.
//
// One level only: a file that includes a header that includes the changed
// one is not a dependent. Which files exist is the workspace's listing
// (ws.Files: git's, honouring .gitignore, or a walk that does too); files larger than
// maxDependentFileSize, in a directory the watcher skips (node_modules,
// vendor, .venv, …) or not regular (symlinks) are never read. How the
// listing and each file's imports are kept between calls is in
// dependents_scan.go and dependents_watch.go.

// MaxDependents caps how many dependents ImportIndex.Dependents returns:
// each is opened in the server, which then checks it, and the lint block
// shows at most 5 other files anyway.
const MaxDependents = 20

// maxDependentFileSize is the largest file read for its imports (1 MiB):
// bigger ones are generated bundles or data, not callers to report.
const maxDependentFileSize = 1 << 20

// listTTL is how long a listing of the root is reused before the next call
// lists again. Files that appear in between are found at the next listing,
// or at once when a changed file is one the listing does not hold (the
// agent is creating files); deleted ones are dropped when stat fails.
const listTTL = 2 * time.Second

// clockSlack is how much earlier than the listing a file's modification
// time may be and still be taken as newer: the kernel stamps files from a
// coarse clock that can lag time.Now by a few milliseconds.
const clockSlack = time.Second

// importRef is one import statement's target as written.
type importRef struct {
	// path is what is imported: a Python module with its leading dots
	// ("pkg.models", "..models", "."), a JavaScript module specifier
	// ("./models.js"), a C include name ("sub/models.h").
	path string
	// names are the names of a Python `from … import names` (no "*").
	names []string
	// angle marks a C `#include <…>`.
	angle bool
	// pkg is the package a bare JavaScript specifier names
	// (jsPackageName), worked out once when the file is parsed.
	pkg string
}

// importRules are one language's import statements.
type importRules interface {
	// parse returns the imports of a file's text.
	parse(text []byte) []importRef
	// names reports whether ref, written in the file importer, can name
	// target; both are root-relative slash paths.
	names(q *depQuery, importer string, ref importRef, target string) bool
}

// rulesFor returns the import rules of files with extension ext (with the
// dot), or nil for a language without them here.
func rulesFor(ext string) importRules {
	switch ext {
	case ".py", ".pyi":
		return pyRules{}
	case ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs":
		return jsRules{}
	case ".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".m", ".mm", ".inc", ".ipp", ".tpp":
		return cRules{}
	}
	return nil
}

// ImportIndex finds the dependents of changed files under one server's
// root. It keeps the root's listing and each file's imports (until its
// size or modification time changes). Unwatched, it lists the root again
// when the listing is older than listTTL and stats every candidate file on
// each call; watching the workspace's Watcher (Watch), it lists again only
// when files appeared or went and reads only the files that changed.
// Measured on 2,000 Python files (BenchmarkDependents, 2 loaded cores):
// ~0.6 ms of CPU a call watched, ~6 ms unwatched (the stats), ~11 ms when
// the listing is made again (git ls-files), ~50 ms for the first call. Its
// methods are safe for concurrent use.
type ImportIndex struct {
	server config.Server
	root   string

	mu         sync.Mutex               // guards listed, files, flagDirs, jsPackages, pyRoots, compileDBs, parsed and stats
	listed     time.Time                // when files was listed; zero: never
	files      []string                 // root-relative slash paths of the candidate files
	flagDirs   map[string]bool          // root-relative directories holding a compile_flags.txt ("." for the root)
	jsPackages map[string]string        // the workspace's JavaScript packages: name → root-relative directory (dependents_ts.go)
	pyRoots    map[string]bool          // root-relative directories Python projects import from: each project's and its src ("" for the root; dependents_py.go)
	compileDBs map[string]compileDBInfo // root-relative compile_commands.json → what it gave (dependents_c.go)
	parsed     map[string]parsedFile
	stats      int // files the last call stat'ed (the tests look)

	watch indexWatch // dependents_watch.go
}

// parsedFile is a file's imports as of its size and modification time.
type parsedFile struct {
	size    int64
	modTime time.Time
	refs    []importRef
}

// NewImportIndex returns an index of root (absolute, cleaned) for server.
func NewImportIndex(server config.Server, root string) *ImportIndex {
	return &ImportIndex{server: server, root: root, parsed: make(map[string]parsedFile), compileDBs: make(map[string]compileDBInfo)}
}

// Dependents returns the files under the root that import one of changed
// (absolute paths) directly, by the rules of the file comment: absolute
// paths, nearest to a changed file first (fewest directories apart), then
// in path order, without the changed files themselves, at most
// MaxDependents; capped reports that there were more. It returns nil for a
// server without OpenDependents, and for changed files in no language with
// import rules here. A changed file may have been deleted: its importers
// are what it broke. err is a listing failure, a read failure other than
// the file going away, or ctx ending.
func (ix *ImportIndex) Dependents(ctx context.Context, changed []string) (deps []string, capped bool, err error) {
	return ix.dependentsWhere(ctx, changed, nil, &globalsQuery{})
}

// transitive returns the files under the root that import one of changed
// (absolute paths), those that import them, and so on up to levels
// imports away (importLevels): dependentsWhere's files (keep as there)
// level by level, seed (the importers of changed files found otherwise:
// a file of another root's, by the workspace's index) with the first,
// each level in the order found, without changed. deps are those of the
// first recheck levels, at most limit; beyond are the rest of the level
// where limit was reached and every file found in the levels past it or
// past recheck, in the same order, at most MaxDependents. capped reports
// that there may be more than deps and beyond: a level held more than
// dependentsWhere lists (MaxDependents), beyond was full, or the walk
// stopped before its last level. err is a level's failure, with the
// files found before it. before is importWalk.before: the names changed
// files' texts before declared in the global scope (nil: none known).
func (ix *ImportIndex) transitive(ctx context.Context, changed, seed []string, before map[string][]string, keep func(string) bool, limit, recheck, levels int) (deps, beyond []string, capped bool, err error) {
	w := ix.walk(changed, seed, keep, limit, recheck)
	w.before = before
	err = w.to(ctx, levels)
	return w.deps, w.beyond, w.capped || !w.done, err
}

// importWalk is transitive's walk, which can stop at a level and go on
// later (to).
type importWalk struct {
	ix             *ImportIndex
	changed, seed  []string
	keep           func(string) bool
	limit, recheck int
	// deps, beyond and capped are as transitive's, so far: capped here
	// does not count the levels not walked yet.
	deps, beyond []string
	capped       bool
	level        []string // the files of the last level walked, whose importers come next
	// before holds, for changed files (absolute paths), the names their
	// texts before the change declared in the global scope
	// (dependents_globals.go): their users are the first level's too.
	before map[string][]string
	next   int  // the number of levels walked
	done   bool // no file is left whose importers were not looked for, or beyond is full
}

// walk starts transitive's walk; it looks at nothing until to.
func (ix *ImportIndex) walk(changed, seed []string, keep func(string) bool, limit, recheck int) *importWalk {
	return &importWalk{ix: ix, changed: changed, seed: seed, keep: keep, limit: limit, recheck: recheck, level: changed}
}

// to walks on until levels levels have been walked or done. err is a
// level's failure: the walk is done then, and capped.
func (w *importWalk) to(ctx context.Context, levels int) error {
	for ; w.next < levels && !w.done; w.next++ {
		var found []string
		if w.next == 0 {
			found = w.seed
		}
		if len(w.level) > 0 {
			var g *globalsQuery
			if w.next == 0 {
				g = &globalsQuery{before: w.before}
			}
			more, c, err := w.ix.dependentsWhere(ctx, w.level, w.keep, g)
			if err != nil {
				w.done, w.capped = true, true
				return err
			}
			w.capped = w.capped || c
			found = append(slices.Clone(found), more...)
		}
		w.level = nil
		for _, p := range found {
			if slices.Contains(w.changed, p) || slices.Contains(w.deps, p) || slices.Contains(w.beyond, p) {
				continue
			}
			switch {
			case w.next < w.recheck && len(w.deps) < w.limit && len(w.beyond) == 0:
				w.deps = append(w.deps, p)
			case len(w.beyond) < MaxDependents:
				w.beyond = append(w.beyond, p)
			default:
				w.done, w.capped = true, true
				return nil
			}
			w.level = append(w.level, p)
		}
		w.done = len(w.level) == 0
	}
	return nil
}

// globalsQuery asks dependentsWhere for the users of what the changed
// TypeScript files declare in the global scope too (globalUsersLocked):
// changed files, not importers found by an earlier level, whose exports
// did not change.
type globalsQuery struct {
	// before holds, for some changed files (absolute paths), the names
	// the text before the change declared: a global renamed or removed
	// breaks the files using its old name.
	before map[string][]string
}

// dependentsWhere is Dependents over the files keep (given each absolute
// path) keeps, nil for all, chosen before the cap; keep is asked only of
// files that import a changed one (or use its globals). With g, the users
// of the changed files' globals are dependents as their importers are.
func (ix *ImportIndex) dependentsWhere(ctx context.Context, changed []string, keep func(string) bool, g *globalsQuery) (deps []string, capped bool, err error) {
	if !ix.server.OpenDependents {
		return nil, false, nil
	}
	targets := make(map[string]importRules) // root-relative changed path → its rules
	for _, p := range changed {
		rel, inside := ws.Rel(ix.root, filepath.Clean(p))
		if !inside || rel == "." {
			continue
		}
		if r := ix.targetRules(path.Ext(rel)); r != nil {
			targets[rel] = r
		}
	}
	if len(targets) == 0 {
		return nil, false, nil
	}
	seen := ix.watch.take(ctx) // before ix.mu: the watcher's callback needs neither
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ix.updateLocked(ctx, targets, seen); err != nil {
		ix.watch.unprime() // what seen held is lost: stat everything next time
		return nil, false, err
	}
	ix.watch.prime(seen)
	q := &depQuery{root: ix.root, flagDirs: ix.flagDirs, jsPackages: ix.jsPackages, pyRoots: ix.pyRoots, compileDBs: ix.compileDBs}
	found := make(map[string]int) // dependent → distance to the nearest changed file it imports
	for _, rel := range ix.files {
		if _, self := targets[rel]; self {
			continue
		}
		pf, ok := ix.parsed[rel]
		if !ok {
			continue
		}
		rules := rulesFor(path.Ext(rel))
		for target, tr := range targets {
			if tr != rules || !importsAny(q, rules, rel, pf.refs, target) {
				continue
			}
			if keep != nil && !keep(filepath.Join(ix.root, filepath.FromSlash(rel))) {
				break // asked of importers only: keep may stat (FindRoot)
			}
			if d, seen := found[rel]; !seen || dirDistance(rel, target) < d {
				found[rel] = dirDistance(rel, target)
			}
		}
	}
	var globals []string // the changed files that can declare globals, when g asks for their users
	for rel := range targets {
		if g != nil && declaresGlobals(rel) {
			globals = append(globals, rel)
		}
	}
	if len(globals) > 0 {
		before := make(map[string][]string, len(g.before))
		for p, names := range g.before {
			if rel, inside := ws.Rel(ix.root, filepath.Clean(p)); inside {
				before[rel] = names
			}
		}
		slices.Sort(globals)
		keepRel := func(rel string) bool { return keep == nil || keep(filepath.Join(ix.root, filepath.FromSlash(rel))) }
		capped = ix.globalUsersLocked(globals, before, keepRel, found)
	}
	deps, more, err := ix.order(found)
	return deps, capped || more, err
}

// targetRules returns the import rules by which a file with extension ext
// (with the dot) is imported: its own language's, when the server serves
// it; the rules of the server's first extension, when its languages
// import such files (config.Server.ImportedExtensions: TypeScript's JSON
// modules); else nil.
func (ix *ImportIndex) targetRules(ext string) importRules {
	if r := rulesFor(ext); r != nil && ix.server.Serves(ext) {
		return r
	}
	if slices.Contains(ix.server.ImportedExtensions, ext) && len(ix.server.Extensions) > 0 {
		return rulesFor(ix.server.Extensions[0])
	}
	return nil
}

// importsAny reports whether one of refs, written in importer, names target.
func importsAny(q *depQuery, rules importRules, importer string, refs []importRef, target string) bool {
	for _, ref := range refs {
		if rules.names(q, importer, ref, target) {
			return true
		}
	}
	return false
}

// order sorts found (dependent → distance) nearest first, then by path,
// caps it at MaxDependents and makes the paths absolute.
func (ix *ImportIndex) order(found map[string]int) ([]string, bool, error) {
	rels := make([]string, 0, len(found))
	for rel := range found {
		rels = append(rels, rel)
	}
	slices.SortFunc(rels, func(a, b string) int {
		if d := found[a] - found[b]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	capped := len(rels) > MaxDependents
	rels = rels[:min(len(rels), MaxDependents)]
	out := make([]string, len(rels))
	for i, rel := range rels {
		out[i] = filepath.Join(ix.root, filepath.FromSlash(rel))
	}
	return out, capped, nil
}

// aboveRoot reports whether a cleaned root-relative slash path (path.Join's
// result) leads out of the root: ".." or "../…".
func aboveRoot(p string) bool {
	return p == ".." || strings.HasPrefix(p, "../")
}

// dirDistance is how many directories apart two root-relative slash paths
// are: the steps up from a's directory to the deepest directory both share,
// plus the steps down to b's.
func dirDistance(a, b string) int {
	da, db := splitDir(a), splitDir(b)
	common := 0
	for common < len(da) && common < len(db) && da[common] == db[common] {
		common++
	}
	return len(da) - common + len(db) - common
}

// splitDir returns the directory names of a root-relative slash path.
func splitDir(rel string) []string {
	dir := path.Dir(rel)
	if dir == "." {
		return nil
	}
	return strings.Split(dir, "/")
}

// depQuery is what one Dependents call works out once and its rules
// share: C's include directories per compile_flags.txt.
type depQuery struct {
	root       string
	flagDirs   map[string]bool          // as ImportIndex.flagDirs
	includes   map[string][]string      // directory → include directories of its nearest compile_flags.txt (includeDirs)
	jsPackages map[string]string        // as ImportIndex.jsPackages
	pyRoots    map[string]bool          // as ImportIndex.pyRoots
	compileDBs map[string]compileDBInfo // as ImportIndex.compileDBs (filled as databases are read)
}
