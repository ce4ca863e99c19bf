// Package hooks adapts agents' post-write hooks to lsp-hook: each Adapter
// decodes one agent's hook event (its stdin JSON) into wire.Change lists and
// encodes the lint block in that agent's output JSON; Run is the hook
// process itself — connect to (or start) the workspace daemon, send the
// changes, print the answer within the budget, and never fail the agent's
// tool. Declarations (declare.go) are the YAML hook declarations of agent
// runtimes, run over a stream of JSON-lines events by Runner. Writing
// lsp-hook into agents' own config files is package install's.
//
// hooks imports wire (the daemon's protocol and client), config, diag and
// internal helpers; never the engine (sidecar, lsp), mcp or cmd
// (wire/imports_test.go). Its in-process fallback is given to it as a
// Local (cmd passes sidecar.Local).
package hooks
