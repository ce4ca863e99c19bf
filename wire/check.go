package wire

import "github.com/sourcegraph/jsonrpc2"

// Methods of DESIGN.md's table for callers that want a verdict rather than
// a lint block, and for cancelling a long request.
const (
	// MethodCheck checks one file as it is on disk: CheckParams →
	// CheckResult.
	MethodCheck = "check"
	// MethodCancelRequest cancels a request still running on the same
	// connection: CancelParams → {}. LSP's `$/cancelRequest` notification
	// (LSP 3.17 "Cancellation Support") is accepted too.
	MethodCancelRequest = "cancel_request"
)

// CheckParams names the file to check, absolute or root-relative.
type CheckParams struct {
	Path string `json:"path"`
}

// CheckResult is the verdict on one file: OK when it has no error, and how
// many errors and warnings it has (info and hint are not counted). Freshness
// is the worst freshness of the servers that checked it ("fresh",
// "partial", "timeout", "none"): a timeout is never reported as OK. Notes
// say why the file could not be checked (missing, binary, outside the
// workspace), in which case OK is false.
type CheckResult struct {
	OK        bool     `json:"ok"`
	Errors    int      `json:"errors"`
	Warnings  int      `json:"warnings"`
	Freshness string   `json:"freshness"`
	Notes     []string `json:"notes,omitempty"`
}

// CancelParams names the request to cancel by its JSON-RPC id (a number or
// a string, as it was sent).
type CancelParams struct {
	ID *jsonrpc2.ID `json:"id"`
}
