package sidecar

import (
	"context"
	"log/slog"

	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Local is the engine without a daemon, for a hook that has none
// (hooks.Options.Local): the built-in validators only, and a shell
// command's files by modification time.
type Local struct{}

// ChangedOnDisk is the package's ChangedOnDisk.
func (Local) ChangedOnDisk(ctx context.Context, root string, p wire.ChangedFilesParams, uncovered string) (wire.ChangedFilesResult, error) {
	return ChangedOnDisk(ctx, root, p, uncovered)
}

// Check loads the workspace's config (its problems are logged; defaults
// stand in) and checks p with an engine without language servers;
// fallback, when not "", is why no server checked (engine.Engine.Fallback).
func (Local) Check(ctx context.Context, root string, p wire.NotifyChangeParams, fallback string, log *slog.Logger) wire.Result {
	cfg, problems := engine.LoadConfig(root)
	for _, pr := range problems {
		log.Warn("config problem; using defaults for it", "problem", pr.Error())
	}
	e := engine.NewEngine(root, cfg, nil, log)
	e.Fallback = fallback // the block names the servers that did not check, within its caps
	return e.Check(ctx, p)
}
