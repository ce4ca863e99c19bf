// Package sidecar is lsp-hook's engine and daemon. The Engine runs every
// checker for a change — built-in validators in-process, language servers
// through lsp.Manager — merges, filters and renders the result. The daemon
// (Server) serves the Engine on a per-workspace Unix socket speaking JSON-RPC
// 2.0 with Content-Length framing (the LSP base protocol), and Client is the
// other end: dialing, starting the daemon when absent, and calling it.
//
// The wire protocol (DESIGN.md "Socket and wire protocol") is in
// protocol.go. sidecar imports lsp, validators, config and diag, and never
// hooks or cmd.
package sidecar
