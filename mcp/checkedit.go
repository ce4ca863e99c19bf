package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lsp-hook/lsp-hook/internal/safefile"
	"github.com/lsp-hook/lsp-hook/wire"
)

// ToolCheckEdit checks an edit before it is written (wire.MethodCheckEdit).
const ToolCheckEdit = "lsp_check_edit"

// CheckEditInput names a file and its would-be text: the whole of it
// (content), or one replacement in it (old_string, new_string), as an
// agent's Write and Edit tools take them.
type CheckEditInput struct {
	Path       string  `json:"path" jsonschema:"the file: absolute, or relative to the workspace root; it must exist"`
	Content    *string `json:"content,omitempty" jsonschema:"the file's whole new text (instead of old_string and new_string)"`
	OldString  string  `json:"old_string,omitempty" jsonschema:"text of the file to replace; it must occur exactly once unless replace_all"`
	NewString  string  `json:"new_string,omitempty" jsonschema:"what replaces old_string"`
	ReplaceAll bool    `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_string (default false)"`
}

// newText is the would-be text of a file holding disk, per in.
func (in CheckEditInput) newText(disk string) (string, error) {
	switch {
	case in.Content != nil && in.OldString != "":
		return "", errors.New("give content, or old_string and new_string, not both")
	case in.Content != nil:
		return *in.Content, nil
	case in.OldString == "":
		return "", errors.New("give content (the whole new text), or old_string and new_string")
	}
	n := strings.Count(disk, in.OldString)
	switch {
	case n == 0:
		return "", fmt.Errorf("old_string is not in %s", in.Path)
	case n > 1 && !in.ReplaceAll:
		return "", fmt.Errorf("old_string occurs %d times in %s: give more context to make it unique, or replace_all", n, in.Path)
	}
	return strings.ReplaceAll(disk, in.OldString, in.NewString), nil
}

func (t *tools) checkEdit(ctx context.Context, _ *sdk.CallToolRequest, in CheckEditInput) (*sdk.CallToolResult, any, error) {
	p, err := t.resolve(in.Path)
	if err != nil {
		return nil, nil, err
	}
	disk, err := safefile.ReadFollow(p, maxFileSize)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", in.Path, err)
	}
	content, err := in.newText(string(disk))
	if err != nil {
		return nil, nil, err
	}
	var res wire.CheckEditResult
	if err := t.daemon.call(ctx, wire.MethodCheckEdit, wire.CheckEditParams{Path: p, Content: content}, &res); err != nil {
		return nil, nil, jsonrpcMessage(err)
	}
	var servers []string
	for _, s := range res.Servers {
		servers = append(servers, s.Name+": "+s.Freshness)
	}
	out := "Nothing written. "
	if res.Lint == "" {
		out += fmt.Sprintf("This edit would introduce no diagnostics (%s).", strings.Join(servers, ", "))
	} else {
		out += fmt.Sprintf("This edit would introduce (%s):\n%s", strings.Join(servers, ", "), res.Lint)
	}
	if !res.Restored {
		out += "\nThe language servers' view of the file may not be back to the disk's text yet."
	}
	return text(out), nil, nil
}
