// Package sidecar is lsp-hook's engine and daemon. The Engine runs every
// checker for a change — built-in validators in-process, language servers
// through lsp.Manager — merges, filters and renders the result. The daemon
// (Server) serves the Engine on a per-workspace Unix socket: listening and
// re-listening, peer checks, limits, the method table, lifecycle. Local is
// the Engine without a daemon, for a hook that has none.
//
// The wire protocol and the client are package wire's; sidecar imports
// wire, lsp, validators, parsers, config and diag, and never hooks, mcp or
// cmd.
package sidecar
