// Package engine is lsp-hook's engine: it runs every checker for a change
// and answers with one result. The Engine runs the built-in validators
// in-process, the language servers through lsp.Manager and the configured
// linters (compiler mode, through parsers); it merges their diagnostics,
// keeps only the new ones when only_new asks (the baseline and line map),
// and renders the lint block within its limits. It also holds diagnose's
// batch engine (Diagnose, over the engine or a daemon's client), the
// loading of a workspace's config with the linters' problems (LoadConfig),
// the files a change may read (input), and the fan-out of each check's
// published notifications to subscribers.
//
// The daemon that serves an Engine on a socket is package sidecar's. The
// engine imports wire (the protocol types it answers in), lsp, validators,
// parsers, config, diag and internal helpers; it never imports sidecar,
// hooks, mcp, install or cmd.
package engine
