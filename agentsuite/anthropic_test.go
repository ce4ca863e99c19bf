package agentsuite

import (
	"net/http"
	"strconv"
	"strings"
)

// anthropic is the Anthropic Messages API (POST /v1/messages) as Claude
// Code uses it: streaming server-sent events when the request says
// "stream": true, one JSON message otherwise. Events and fields follow
// https://docs.anthropic.com/en/api/messages-streaming (message_start,
// content_block_start/delta/stop with text_delta or input_json_delta,
// message_delta with stop_reason, message_stop).
type anthropic struct{}

var _ dialect = anthropic{}

// isTurn: a main-loop request offers the agent's Write tool; titles,
// quota probes and summaries offer no tools.
func (anthropic) isTurn(path string, body map[string]any) bool {
	if !strings.HasSuffix(path, "/v1/messages") {
		return false
	}
	tools, _ := body["tools"].([]any)
	for _, t := range tools {
		if m, _ := t.(map[string]any); m != nil && m["name"] == "Write" {
			return true
		}
	}
	return false
}

// reply writes s as one assistant message: tool_use blocks (s and
// s.Also, stop_reason tool_use) or a text block (end_turn).
func (a anthropic) reply(w http.ResponseWriter, body map[string]any, s step, n int) {
	id := "msg_script_" + strconv.Itoa(n)
	if s.Tool == "" {
		a.message(w, body, id, []map[string]any{{"type": "text", "text": s.Text}}, "end_turn")
		return
	}
	var blocks []map[string]any
	for k, c := range append([]step{s}, s.Also...) {
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": "toolu_script_" + strconv.Itoa(n) + "_" + strconv.Itoa(k),
			"name": c.Tool, "input": c.Args})
	}
	a.message(w, body, id, blocks, "tool_use")
}

// side answers with a short text message.
func (a anthropic) side(w http.ResponseWriter, path string, body map[string]any) {
	if !strings.HasSuffix(path, "/v1/messages") {
		if strings.HasSuffix(path, "/count_tokens") {
			writeJSON(w, map[string]any{"input_tokens": 100})
			return
		}
		http.NotFound(w, nil)
		return
	}
	a.message(w, body, "msg_side", []map[string]any{{"type": "text", "text": "ok"}}, "end_turn")
}

// message writes one assistant message holding blocks, each streamed as
// start, one delta (the text, or the tool input as JSON) and stop.
func (anthropic) message(w http.ResponseWriter, body map[string]any, id string, blocks []map[string]any, stop string) {
	model, _ := body["model"].(string)
	usage := map[string]any{"input_tokens": 100, "output_tokens": 10}
	if stream, _ := body["stream"].(bool); !stream {
		content := make([]any, len(blocks))
		for i, b := range blocks {
			content[i] = b
		}
		writeJSON(w, map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	sseStart(w)
	sseEvent(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 100, "output_tokens": 1}}})
	for i, block := range blocks {
		start := map[string]any{}
		for k, v := range block {
			start[k] = v
		}
		var d map[string]any
		if block["type"] == "tool_use" {
			start["input"] = map[string]any{}
			d = map[string]any{"type": "input_json_delta", "partial_json": mustJSON(block["input"])}
		} else {
			start["text"] = ""
			d = map[string]any{"type": "text_delta", "text": block["text"]}
		}
		sseEvent(w, "content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": start})
		sseEvent(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d})
		sseEvent(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	sseEvent(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}})
	sseEvent(w, "message_stop", map[string]any{"type": "message_stop"})
}
