// Package hooks adapts agents' post-write hooks to lsp-hook: each Adapter
// decodes one agent's hook event (its stdin JSON) into sidecar.Changes and
// encodes the lint block in that agent's output JSON; Run is the hook
// process itself — connect to (or start) the workspace daemon, send the
// changes, print the answer within the budget, and never fail the agent's
// tool. Declarations (declare.go) are the YAML hook declarations of agent
// runtimes, run over a stream of JSON-lines events by Runner. Writing
// lsp-hook into agents' own config files is package install's.
//
// hooks imports the sidecar client side, config and diag; never cmd.
package hooks
