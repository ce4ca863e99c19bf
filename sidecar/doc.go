// Package sidecar is lsp-hook's daemon. The Server serves an
// engine.Engine on a per-workspace Unix socket: listening and re-listening,
// peer checks, limits, the one method table (decode, handle, cancellable),
// cancelling the checks of a dropped connection, the changed_files method
// with each agent session's hook marks, subscriptions, status (with the
// daemon's own process stats) and restart, and its lifecycle (RunDaemon,
// idle exit, shutdown). Local is what a hook runs in-process when it has
// no daemon: an engine without language servers.
//
// The wire protocol and the client are package wire's; the checking is
// package engine's. sidecar imports engine, wire, lsp, diag and internal
// helpers, and never hooks, mcp, install or cmd.
package sidecar
