package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The modes that play luau-lsp and its companion, rojo's sourcemap watch
// (config.Server.Watch):
//
//	sourcemap   a server that reads ROOT/sourcemap.json ({"names": [...]})
//	            and registers a file watcher for it
//	            (client/registerCapability, workspace/didChangeWatchedFiles,
//	            "**/sourcemap.json") after initialized, as luau-lsp does; a
//	            line "REQUIRE(name)" is an error "Unknown require: name"
//	            unless the sourcemap names it. On each didChangeWatchedFiles
//	            naming sourcemap.json it reads it again and publishes every
//	            open document again, at its last version.
//	rojo-watch  not a server: the companion. Every 50 ms it lists the .luau
//	            files under the working directory and, when the list
//	            changed, writes their base names (without .luau) to
//	            sourcemap.json there (through a rename, as rojo does), and
//	            a line "rewrite N" to -trace. It runs until killed.

// sourcemapState is the sourcemap mode's state, guarded by server.mu.
type sourcemapState struct {
	root     string          // the workspace root's path, from initialize
	names    map[string]bool // the sourcemap's module names
	versions map[string]int  // URI → last version
}

// loadSourcemap reads root/sourcemap.json into s.sm.names. s.mu must be held.
func (s *server) loadSourcemapLocked() {
	s.sm.names = map[string]bool{}
	b, err := os.ReadFile(filepath.Join(s.sm.root, "sourcemap.json"))
	if err != nil {
		return
	}
	var sm struct{ Names []string }
	if json.Unmarshal(b, &sm) == nil {
		for _, n := range sm.Names {
			s.sm.names[n] = true
		}
	}
}

// sourcemapInit records the root of initialize's params.
func (s *server) sourcemapInit(params json.RawMessage) {
	var p struct {
		RootURI string `json:"rootUri"`
	}
	_ = json.Unmarshal(params, &p)
	s.mu.Lock()
	defer s.mu.Unlock()
	if u, err := url.Parse(p.RootURI); err == nil {
		s.sm.root = u.Path
	}
	s.sm.versions = map[string]int{}
	s.loadSourcemapLocked()
}

// sourcemapRegister registers the watcher for sourcemap.json.
func (s *server) sourcemapRegister() {
	s.request("client/registerCapability", map[string]any{"registrations": []any{map[string]any{
		"id": "fakelsp-sourcemap", "method": "workspace/didChangeWatchedFiles",
		"registerOptions": map[string]any{"watchers": []any{map[string]any{"globPattern": "**/sourcemap.json"}}},
	}}})
}

// sourcemapWatched handles didChangeWatchedFiles: when sourcemap.json is
// among the changes, it is read again and every open document published
// again.
func (s *server) sourcemapWatched(params json.RawMessage) {
	var p struct {
		Changes []struct {
			URI  string `json:"uri"`
			Type int    `json:"type"`
		} `json:"changes"`
	}
	_ = json.Unmarshal(params, &p)
	hit := false
	for _, c := range p.Changes {
		s.traceLine(fmt.Sprintf("watched %s %d", c.URI, c.Type))
		hit = hit || strings.HasSuffix(c.URI, "/sourcemap.json")
	}
	if !hit {
		return
	}
	s.mu.Lock()
	s.loadSourcemapLocked()
	type doc struct {
		uri, text string
		version   int
	}
	var docs []doc
	for uri, text := range s.docs {
		docs = append(docs, doc{uri, text, s.sm.versions[uri]})
	}
	s.mu.Unlock()
	for _, d := range docs {
		s.publish(d.uri, d.version, s.sourcemapDiagnostics(d.text))
	}
}

// sourcemapChange records a document's version and publishes it.
func (s *server) sourcemapChange(uri string, version int, text string) {
	s.mu.Lock()
	s.sm.versions[uri] = version
	s.mu.Unlock()
	s.publish(uri, version, s.sourcemapDiagnostics(text))
}

// sourcemapDiagnostics finds the REQUIRE(name) lines of text whose name
// the sourcemap lacks.
func (s *server) sourcemapDiagnostics(text string) []any {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []any{}
	for i, line := range strings.Split(text, "\n") {
		at := strings.Index(line, "REQUIRE(")
		if at < 0 {
			continue
		}
		name, _, ok := strings.Cut(line[at+len("REQUIRE("):], ")")
		if ok && !s.sm.names[name] {
			out = append(out, diagnostic(i, utf16Len(line[:at]), "unknown-require", "Unknown require: "+name, 1))
		}
	}
	return out
}

// rojoWatch is the rojo-watch mode: see the comment above.
func (s *server) rojoWatch() int {
	var last []string
	rewrites := 0
	for {
		var names []string
		_ = filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".luau") {
				names = append(names, strings.TrimSuffix(filepath.Base(p), ".luau"))
			}
			return nil
		})
		slices.Sort(names)
		if last == nil || !slices.Equal(names, last) {
			b, _ := json.Marshal(map[string]any{"names": append([]string{}, names...)})
			if os.WriteFile("sourcemap.json.tmp", b, 0o644) == nil && os.Rename("sourcemap.json.tmp", "sourcemap.json") == nil {
				rewrites++
				s.traceLine(fmt.Sprintf("rewrite %d %v", rewrites, names))
				last = append([]string{}, names...)
				if last == nil {
					last = []string{}
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}
