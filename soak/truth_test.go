package soak

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// snapshot is the workspace's files at one moment: workspace-relative,
// slash-separated path → content, for every regular file outside dot
// directories (.git, a server's .cache).
type snapshot map[string]string

// takeSnapshot reads every regular file under root, dot directories left
// out.
func takeSnapshot(root string) (snapshot, error) {
	s := make(snapshot)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && p != root && strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir
		case !d.Type().IsRegular():
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		s[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	return s, err
}

// key names the snapshot's contents: sha256 over its sorted paths and
// contents, in hex.
func (s snapshot) key() string {
	h := sha256.New()
	for _, p := range slices.Sorted(maps.Keys(s)) {
		h.Write([]byte(p + "\x00" + s[p] + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// truth is what the compiler says about one snapshot.
type truth struct {
	errs    map[string]map[int]bool // file → the 1-based lines it reports an error on
	groups  map[string][][]int      // file → each error's lines: one, or each a server may rightly show it on (addEither); an answer must show one of each
	unknown map[string]bool         // files it did not get to check (Go: a package they need failed to build)
	partial map[string]bool         // files it stopped checking at a fatal error (C: a missing #include): more errors may follow
	output  string                  // its output, for the report
}

func newTruth(output string) *truth {
	return &truth{errs: make(map[string]map[int]bool), groups: make(map[string][][]int), unknown: make(map[string]bool),
		partial: make(map[string]bool), output: output}
}

// add records an error on file's line.
func (t *truth) add(file string, line int) { t.addEither(file, line) }

// addEither records one error of file that may be shown on any of lines
// (clang puts "expected ';' after struct" past the '}', clangd on the
// next token's line).
func (t *truth) addEither(file string, lines ...int) {
	if t.errs[file] == nil {
		t.errs[file] = make(map[int]bool)
	}
	for _, n := range lines {
		t.errs[file][n] = true
	}
	t.groups[file] = append(t.groups[file], lines)
}

// merge adds o's errors and partial files to t (one compiler run's
// truth into the project's).
func (t *truth) merge(o *truth) {
	for f, groups := range o.groups {
		for _, g := range groups {
			t.addEither(f, g...)
		}
	}
	maps.Copy(t.partial, o.partial)
}

// missing returns the lines of file's errors of which shown has none, a
// line of each (the first it may be shown on).
func (t *truth) missing(file string, shown map[int]bool) []int {
	var out []int
	for _, g := range t.groups[file] {
		if !slices.ContainsFunc(g, func(n int) bool { return shown[n] }) {
			out = append(out, g[0])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// lines returns the lines of file with an error, in order.
func (t *truth) lines(file string) []int { return slices.Sorted(maps.Keys(t.errs[file])) }

// compileTimeout bounds one compiler run.
const compileTimeout = 3 * time.Minute

// oracle asks one language's compiler for the truth of snapshots: in a
// mirror directory outside the workspace (so the daemon's watcher never
// sees the compiler's work), each distinct snapshot once, one compile at
// a time, in the background, so the next agent move need not wait.
type oracle struct {
	lang *language
	dir  string   // the mirror, symlink-free
	env  []string // the compiler's environment

	run    sync.Mutex // held while a compile uses dir; guards mirror
	mirror snapshot   // what dir holds

	mu      sync.Mutex         // guards results
	results map[string]*future // by snapshot key
}

// future is a truth being computed.
type future struct {
	done  chan struct{} // closed when truth and err are set
	snap  snapshot
	truth *truth
	err   error
}

func newOracle(lang *language, dir string, env []string) *oracle {
	return &oracle{lang: lang, dir: dir, env: env, mirror: make(snapshot), results: make(map[string]*future)}
}

// submit starts computing the truth of s, unless it was asked before, and
// returns its key.
func (o *oracle) submit(s snapshot) string {
	k := s.key()
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.results[k] != nil {
		return k
	}
	f := &future{done: make(chan struct{}), snap: s}
	o.results[k] = f
	go func() {
		defer close(f.done)
		f.truth, f.err = o.compile(s)
	}()
	return k
}

// get waits for the truth of the snapshot named key, which submit was
// given.
func (o *oracle) get(key string) (*truth, error) {
	o.mu.Lock()
	f := o.results[key]
	o.mu.Unlock()
	<-f.done
	return f.truth, f.err
}

// snapshot returns the snapshot named key, which submit was given.
func (o *oracle) snapshot(key string) snapshot {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.results[key].snap
}

// compile makes the mirror hold s and runs the compiler there.
func (o *oracle) compile(s snapshot) (*truth, error) {
	o.run.Lock()
	defer o.run.Unlock()
	for p := range o.mirror {
		if _, ok := s[p]; !ok {
			if err := os.Remove(filepath.Join(o.dir, filepath.FromSlash(p))); err != nil {
				return nil, err
			}
		}
	}
	changed := make(map[string]string)
	for p, c := range s {
		if old, ok := o.mirror[p]; !ok || old != c {
			changed[p] = c
		}
	}
	if err := writeFiles(o.dir, changed); err != nil {
		return nil, err
	}
	o.mirror = s
	ctx, cancel := context.WithTimeout(context.Background(), compileTimeout)
	defer cancel()
	return o.lang.compile(ctx, o.dir, o.env, s)
}
