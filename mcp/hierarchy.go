package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Type definition, implementation and call hierarchy: more position
// tools, answered as locations (format.go).

// Tool names.
const (
	ToolTypeDefinition = "lsp_type_definition"
	ToolImplementation = "lsp_implementation"
	ToolIncomingCalls  = "lsp_incoming_calls"
	ToolOutgoingCalls  = "lsp_outgoing_calls"
)

func (t *tools) typeDefinition(ctx context.Context, _ *sdk.CallToolRequest, in PositionInput) (*sdk.CallToolResult, any, error) {
	return t.positionTool(ctx, in, "textDocument/typeDefinition", nil, t.locationsOf, "No type definition found for")
}

func (t *tools) implementation(ctx context.Context, _ *sdk.CallToolRequest, in PositionInput) (*sdk.CallToolResult, any, error) {
	return t.positionTool(ctx, in, "textDocument/implementation", nil, func(res wire.RequestResult, pos position) (string, error) {
		s, err := t.locationsOf(res, pos)
		if s == "" || err != nil {
			return s, err
		}
		locs, _ := decodeLocations(res.Result)
		return fmt.Sprintf("%d implementation(s) of %s:\n%s", len(locs), t.subject(in, pos), s), nil
	}, "No implementation found for")
}

// locationsOf renders a Location | Location[] | LocationLink[] result.
func (t *tools) locationsOf(res wire.RequestResult, _ position) (string, error) {
	locs, err := decodeLocations(res.Result)
	if err != nil || len(locs) == 0 {
		return "", err
	}
	return newRenderer(t.root, res.Encoding).locations(locs, maxReferences), nil
}

// callItem is LSP 3.17 "CallHierarchyItem"; Raw is the item as the server
// sent it, sent back as is for the incoming and outgoing calls (its data
// included).
type callItem struct {
	Name           string    `json:"name"`
	Kind           int       `json:"kind"`
	Detail         string    `json:"detail"`
	URI            string    `json:"uri"`
	SelectionRange lsp.Range `json:"selectionRange"`
	Raw            json.RawMessage
}

// decodeCallItems decodes CallHierarchyItem[] | null; an item without a
// uri or name is an error.
func decodeCallItems(raw json.RawMessage) ([]callItem, error) {
	if s := strings.TrimSpace(string(raw)); s == "" || s == "null" {
		return nil, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(raw, &raws); err != nil {
		return nil, fmt.Errorf("decoding CallHierarchyItem[] %.200s: %w", raw, err)
	}
	out := make([]callItem, len(raws))
	for i, r := range raws {
		if err := json.Unmarshal(r, &out[i]); err != nil || out[i].URI == "" || out[i].Name == "" {
			return nil, fmt.Errorf("decoding CallHierarchyItem %.200s: not an item with name and uri", r)
		}
		out[i].Raw = r
	}
	return out, nil
}

// call is LSP 3.17 "CallHierarchyIncomingCall" (From) or
// "CallHierarchyOutgoingCall" (To) with the ranges of the calls.
type hierarchyCall struct {
	From       *callItem   `json:"from"`
	To         *callItem   `json:"to"`
	FromRanges []lsp.Range `json:"fromRanges"`
}

func (t *tools) incomingCalls(ctx context.Context, _ *sdk.CallToolRequest, in PositionInput) (*sdk.CallToolResult, any, error) {
	return t.callHierarchy(ctx, in, true)
}

func (t *tools) outgoingCalls(ctx context.Context, _ *sdk.CallToolRequest, in PositionInput) (*sdk.CallToolResult, any, error) {
	return t.callHierarchy(ctx, in, false)
}

// callHierarchy prepares the call hierarchy at the position and asks for
// the calls into (incoming) or out of each item. Incoming: one line per
// call site, "rel:line:col: source (in caller)"; outgoing: one line per
// callee, "rel:line:col: source" of its declaration, then the call sites
// in the item ("called at line:col, …"). At most maxReferences lines,
// then a count.
func (t *tools) callHierarchy(ctx context.Context, in PositionInput, incoming bool) (*sdk.CallToolResult, any, error) {
	res, pos, err := t.atPosition(ctx, in, "textDocument/prepareCallHierarchy", nil)
	if err != nil {
		return nil, nil, err
	}
	items, err := decodeCallItems(res.Result)
	if err != nil {
		return nil, nil, err
	}
	if len(items) == 0 {
		return text(fmt.Sprintf("No function or method at %s to list calls of (%s).", t.subject(in, pos), res.Server)), nil, nil
	}
	method, dir := "callHierarchy/outgoingCalls", "outgoing call(s) from"
	if incoming {
		method, dir = "callHierarchy/incomingCalls", "incoming call(s) to"
	}
	r := newRenderer(t.root, res.Encoding)
	var lines []string
	total := 0
	for _, it := range items {
		cres, err := t.request(ctx, pos.path, method, map[string]any{"item": it.Raw})
		if err != nil {
			return nil, nil, err
		}
		calls, err := decodeCalls(cres.Result)
		if err != nil {
			return nil, nil, err
		}
		n, ls := r.calls(it, calls, incoming)
		total += n
		lines = append(lines, ls...)
	}
	if total == 0 {
		none := "No calls from"
		if incoming {
			none = "No calls to"
		}
		return text(fmt.Sprintf("%s %s found (%s).", none, t.subject(in, pos), res.Server)), nil, nil
	}
	if len(lines) > maxReferences {
		lines = append(lines[:maxReferences], fmt.Sprintf("... and %d more (%d in all)", len(lines)-maxReferences, len(lines)))
	}
	return text(fmt.Sprintf("%d %s %s:\n%s", total, dir, t.subject(in, pos), strings.Join(lines, "\n"))), nil, nil
}

// decodeCalls decodes CallHierarchyIncomingCall[] or
// CallHierarchyOutgoingCall[] (or null).
func decodeCalls(raw json.RawMessage) ([]hierarchyCall, error) {
	if s := strings.TrimSpace(string(raw)); s == "" || s == "null" {
		return nil, nil
	}
	var calls []hierarchyCall
	if err := json.Unmarshal(raw, &calls); err != nil {
		return nil, fmt.Errorf("decoding calls %.200s: %w", raw, err)
	}
	for _, c := range calls {
		if (c.From == nil || c.From.URI == "") && (c.To == nil || c.To.URI == "") {
			return nil, fmt.Errorf("decoding calls %.200s: a call has neither from nor to", raw)
		}
	}
	return calls, nil
}

// calls renders the calls of item: the number of calls (call sites for
// incoming, callees for outgoing) and the lines.
func (r *renderer) calls(item callItem, calls []hierarchyCall, incoming bool) (int, []string) {
	var lines []string
	n := 0
	for _, c := range calls {
		if incoming && c.From != nil {
			for _, fr := range c.FromRanges {
				n++
				lines = append(lines, fmt.Sprintf("%s (in %s %s)", r.location(c.From.URI, fr.Start), kindName(c.From.Kind), c.From.Name))
			}
			continue
		}
		if c.To == nil {
			continue
		}
		n++
		var at []string
		for _, fr := range c.FromRanges {
			w, _ := r.where(item.URI, fr.Start)
			if lc := w[strings.LastIndex(w[:strings.LastIndex(w, ":")], ":")+1:]; !slices.Contains(at, lc) {
				at = append(at, lc)
			}
		}
		lines = append(lines, fmt.Sprintf("%s %s: %s (called at %s)", kindName(c.To.Kind), c.To.Name,
			r.location(c.To.URI, c.To.SelectionRange.Start), strings.Join(at, ", ")))
	}
	return n, lines
}
