package wire

import "encoding/json"

// MethodRequest sends one read-only LSP request (definition, references,
// hover, symbols) to the language server that handles a file: the
// navigation half of the daemon, used by `lsp-hook mcp`.
const MethodRequest = "request"

// RequestParams names the file (absolute or root-relative; it must be in
// the workspace) whose server answers, the LSP method (one of
// RequestMethods) and its params exactly as the server takes them:
// positions 0-based, characters in the server's position encoding, which
// the result names (a client that does not know it yet may send a
// position-free method first, or count in UTF-16 and correct afterwards).
type RequestParams struct {
	Path   string          `json:"path"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// RequestResult is the server's raw LSP result ("null" when it found
// nothing), with the server's catalogue name and root and the position
// encoding ("utf-8", "utf-16", "utf-32") every position in params and
// result counts in.
type RequestResult struct {
	Server   string          `json:"server"`
	Root     string          `json:"root"`
	Encoding string          `json:"encoding"`
	Result   json.RawMessage `json:"result"`
}

// RequestMethods are the LSP methods `request` passes on: requests that
// read and never change anything. The refactoring ones (rename, code
// actions, a file rename's follow-ups) return a WorkspaceEdit that the
// caller shows or applies itself; the server applies nothing. A
// textDocument/codeAction whose context has no diagnostics gets, from the
// daemon, the server's own current diagnostics overlapping its range (with
// their data), so the server offers their quick fixes.
var RequestMethods = []string{
	"textDocument/definition", "textDocument/declaration", "textDocument/typeDefinition",
	"textDocument/implementation", "textDocument/references", "textDocument/hover",
	"textDocument/documentSymbol", "workspace/symbol", "textDocument/signatureHelp",
	"textDocument/prepareCallHierarchy", "callHierarchy/incomingCalls", "callHierarchy/outgoingCalls",
	"textDocument/prepareRename", "textDocument/rename", "textDocument/codeAction", "codeAction/resolve",
	"workspace/willRenameFiles",
}

// CodeUnsupported is the JSON-RPC error code of a request no server for the
// file supports (its message names the servers and the capability); the
// data is the capability's name.
const CodeUnsupported = -32001
