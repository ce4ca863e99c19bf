// Package wire is the client side of lsp-hook's daemon: its wire protocol
// (DESIGN.md "Socket and wire protocol": JSON-RPC 2.0 with Content-Length
// framing, the method names and their params and results, the protocol
// version), the bounded framing codec both ends read with, the socket and
// log paths, and the Client — dialing, starting a daemon when none answers
// (one per workspace, behind the start lock), calling it within the
// daemon's limits, and subscribing to its publish channel.
//
// hooks, mcp and cmd talk to the daemon through wire; the daemon itself
// (package sidecar) serves these types, and its engine (package engine)
// answers in them. The results of status and restart carry lsp's status
// types and are declared by sidecar.
//
// wire imports diag and lsp-hook's internal helpers only: never engine,
// sidecar, lsp, validators, parsers, hooks, mcp or cmd (imports_test.go).
package wire
