package lsp

import (
	"bytes"
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file keeps a Go server's //go:embed matches current
// (config.Server.EmbedReloadCommand). A //go:embed pattern names files
// relative to its package's directory, in it or below (the embed package's
// docs, "Directives"), and gopls v0.23.0 learns what a pattern matches only
// from go list as it loads the package: a file created or deleted there
// later changes nothing it knows. So when such a file is created or
// deleted — the watcher's event, or a deletion a hook names — the client
// notes the Go files of the directories at or above it whose //go:embed
// patterns may match it (embedders), and its next check first runs the
// reload command, once for each module, then re-checks them with the
// changed documents. The reload loads the whole view again: seconds on a
// big module, which a file that no pattern matches never costs.

// maxEmbedLevels bounds how many directories above a created or deleted
// file are looked at for an embedding package.
const maxEmbedLevels = 8

// embedDirective is what marks an embedding Go file.
var embedDirective = []byte("//go:embed")

// embedReload is a client's pending reload: the embedders noted since the
// last one.
type embedReload struct {
	mu        sync.Mutex // guards embedders
	embedders []string   // absolute paths, sorted, each once
}

// noteEmbedded takes paths (absolute) created or deleted on disk: for a
// server with an EmbedReloadCommand, the Go files of the directories
// under the client's root at or above each non-Go path that hold a
// //go:embed directive are noted for the next check (reloadEmbedded).
func (c *Client) noteEmbedded(paths []string) {
	if c.server.EmbedReloadCommand == "" {
		return
	}
	if found := embeddersOf(c.root, paths); len(found) > 0 {
		c.noteEmbedders(found)
		c.log.Info("files a //go:embed matches were created or deleted: the server loads their packages afresh at the next check", "embedders", found)
	}
}

// reloadEmbedded runs the server's EmbedReloadCommand when embedders were
// noted, and returns them (absolute paths): the check re-checks them. A
// failed command is logged and its embedders kept for the next check;
// none are returned then.
func (c *Client) reloadEmbedded(ctx context.Context) []string {
	c.embed.mu.Lock()
	embedders := c.embed.embedders
	c.embed.embedders = nil
	c.embed.mu.Unlock()
	if len(embedders) == 0 {
		return nil
	}
	// One command a module: gopls has a view for each go.mod, and resets
	// the view of the file it is given.
	modules := make(map[string]bool)
	for _, p := range embedders {
		mod := moduleDirOf(c.root, p)
		if modules[mod] {
			continue
		}
		modules[mod] = true
		params := executeCommandParams{Command: c.server.EmbedReloadCommand, Arguments: []any{map[string]string{"URI": pathToURI(p)}}}
		if err := c.call(ctx, "workspace/executeCommand", params, nil); err != nil {
			c.log.Warn("reloading packages whose //go:embed matches changed", "command", c.server.EmbedReloadCommand, "file", p, "err", err)
			c.noteEmbedders(embedders)
			return nil
		}
	}
	c.log.Info("reloaded packages whose //go:embed matches changed", "command", c.server.EmbedReloadCommand, "embedders", len(embedders), "modules", len(modules))
	return embedders
}

// moduleDirOf returns the directory of the go.mod nearest above p
// (absolute) under root, or root when there is none.
func moduleDirOf(root, p string) string {
	for dir := filepath.Dir(p); ; dir = filepath.Dir(dir) {
		if _, inside := ws.Rel(root, dir); !inside {
			return root
		}
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil || dir == root {
			return dir
		}
	}
}

// noteEmbedders notes embedders (absolute paths) for the next check.
func (c *Client) noteEmbedders(embedders []string) {
	c.embed.mu.Lock()
	defer c.embed.mu.Unlock()
	for _, p := range embedders {
		if !slices.Contains(c.embed.embedders, p) {
			c.embed.embedders = append(c.embed.embedders, p)
		}
	}
	slices.Sort(c.embed.embedders)
}

// embeddersOf returns the Go files (absolute paths, sorted) in the
// directories under root at or above each non-Go path of paths, at most
// maxEmbedLevels up, whose //go:embed patterns may match it
// (embedMatches). Each directory is read once.
func embeddersOf(root string, paths []string) []string {
	dirs := make(map[string][]embedder) // directory → its embedding files
	var out []string
	for _, p := range paths {
		if strings.HasSuffix(p, ".go") {
			continue // a Go file's creation or deletion reloads its package in gopls itself
		}
		dir := filepath.Dir(p)
		for range maxEmbedLevels {
			if _, inside := ws.Rel(root, dir); !inside {
				break
			}
			ems, read := dirs[dir]
			if !read {
				ems = embeddersIn(dir)
				dirs[dir] = ems
			}
			rel, _ := filepath.Rel(dir, p)
			for _, e := range ems {
				if e.matches(filepath.ToSlash(rel)) {
					out = append(out, e.path)
				}
			}
			if dir == root {
				break
			}
			dir = filepath.Dir(dir)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// embedder is a Go file with //go:embed directives.
type embedder struct {
	path     string   // absolute
	patterns []string // its directives' patterns, "all:" cut, unquoted
}

// embeddersIn returns the Go files of dir that hold a //go:embed
// directive, those it can read that are not larger than
// maxDependentFileSize, with their patterns.
func embeddersIn(dir string) []embedder {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []embedder
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if info, err := e.Info(); err != nil || info.Size() > maxDependentFileSize {
			continue
		}
		if text, err := os.ReadFile(p); err == nil && bytes.Contains(text, embedDirective) {
			out = append(out, embedder{path: p, patterns: embedPatterns(text)})
		}
	}
	return out
}

// GoEmbedPatterns returns the patterns of a Go file's //go:embed
// directives, in order (embedPatterns): go list reads them from the file
// on disk, so gopls, shown another text of the file, answers with the
// patterns on disk (a pattern matching nothing: "pattern motd.txt: no
// matching files found", at 1:1, in the answer to a text without it).
func GoEmbedPatterns(text []byte) []string { return embedPatterns(text) }

// embedPatterns returns the patterns of text's //go:embed lines (the
// embed package's docs, "Directives": space-separated, Go string
// literals where a pattern has spaces, "all:" before one that takes
// files starting with '.' or '_'), "all:" cut and quotes taken off.
func embedPatterns(text []byte) []string {
	var out []string
	for line := range bytes.Lines(text) {
		rest, ok := bytes.CutPrefix(bytes.TrimSpace(line), embedDirective)
		if !ok || len(rest) == 0 || rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		for _, f := range embedFields(string(bytes.TrimSpace(rest))) {
			out = append(out, strings.TrimPrefix(f, "all:"))
		}
	}
	return out
}

// embedFields splits a //go:embed line's patterns at spaces, taking a
// quoted one ("a b" or `a b`) whole, unquoted; a quote that does not
// close ends the line.
func embedFields(s string) []string {
	var out []string
	for s = strings.TrimLeft(s, " \t"); s != ""; s = strings.TrimLeft(s, " \t") {
		if q := s[0]; q == '"' || q == '`' {
			end := strings.IndexByte(s[1:], q)
			if end < 0 {
				return out
			}
			if u, err := strconv.Unquote(s[:end+2]); err == nil {
				out = append(out, u)
			}
			s = s[end+2:]
			continue
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			end = len(s)
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}

// matches reports whether rel (slash-separated, relative to the embedding
// file's directory) may be matched by one of e's patterns: the pattern
// matches it (path.Match), or a directory above it, whose files a
// pattern naming it embeds. A bad pattern matches everything: go build
// reports it, and the reload costs only time.
func (e embedder) matches(rel string) bool {
	for _, pat := range e.patterns {
		for p := rel; p != "." && p != "/" && p != ""; p = path.Dir(p) {
			ok, err := path.Match(pat, p)
			if ok || err != nil {
				return true
			}
		}
	}
	return false
}
