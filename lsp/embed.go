package lsp

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
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
// notes the Go files of the directories at or above it that hold a
// //go:embed directive (embedders), and its next check first runs the
// reload command, then re-checks them with the changed documents.

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
	found := embeddersOf(c.root, paths)
	if len(found) == 0 {
		return
	}
	c.embed.mu.Lock()
	defer c.embed.mu.Unlock()
	for _, p := range found {
		if !slices.Contains(c.embed.embedders, p) {
			c.embed.embedders = append(c.embed.embedders, p)
		}
	}
	slices.Sort(c.embed.embedders)
	c.log.Info("files a //go:embed may match were created or deleted: the server loads their packages afresh at the next check", "embedders", len(c.embed.embedders))
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
	params := executeCommandParams{Command: c.server.EmbedReloadCommand, Arguments: []any{map[string]string{"URI": pathToURI(embedders[0])}}}
	if err := c.call(ctx, "workspace/executeCommand", params, nil); err != nil {
		c.log.Warn("reloading packages whose //go:embed matches changed", "command", c.server.EmbedReloadCommand, "err", err)
		c.noteEmbedders(embedders)
		return nil
	}
	c.log.Info("reloaded packages whose //go:embed matches changed", "command", c.server.EmbedReloadCommand, "embedders", len(embedders))
	return embedders
}

// noteEmbedders puts embedders back for the next check.
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
// maxEmbedLevels up, whose text holds a //go:embed directive. Each
// directory is read once.
func embeddersOf(root string, paths []string) []string {
	seen := make(map[string]bool)
	var out []string
	for _, p := range paths {
		if strings.HasSuffix(p, ".go") {
			continue // a Go file's creation or deletion reloads its package in gopls itself
		}
		dir := filepath.Dir(p)
		for range maxEmbedLevels {
			if _, inside := ws.Rel(root, dir); !inside || seen[dir] {
				break
			}
			seen[dir] = true
			out = append(out, embeddersIn(dir)...)
			if dir == root {
				break
			}
			dir = filepath.Dir(dir)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// embeddersIn returns the Go files of dir (absolute paths) that hold a
// //go:embed directive, those it can read that are not larger than
// maxDependentFileSize.
func embeddersIn(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if info, err := e.Info(); err != nil || info.Size() > maxDependentFileSize {
			continue
		}
		if text, err := os.ReadFile(p); err == nil && bytes.Contains(text, embedDirective) {
			out = append(out, p)
		}
	}
	return out
}
