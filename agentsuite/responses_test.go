package agentsuite

import (
	"net/http"
	"strconv"
	"strings"
)

// responsesAPI is the OpenAI Responses API (POST /v1/responses, "stream":
// true) as Codex uses it through a model_providers entry with wire_api
// "responses" and Copilot CLI with COPILOT_PROVIDER_WIRE_API=responses:
// server-sent events response.created, response.output_item.added and
// .done for the one output item, and response.completed holding the output
// too
// (https://platform.openai.com/docs/api-reference/responses-streaming).
// A tool call is a custom_tool_call (freeform input) when the request
// offers the tool as "type": "custom", else a function_call whose
// arguments are a JSON string.
type responsesAPI struct{}

var _ dialect = responsesAPI{}

// isTurn: a request that offers apply_patch.
func (responsesAPI) isTurn(path string, body map[string]any) bool {
	return strings.HasSuffix(path, "/responses") && toolType(body, "apply_patch") != ""
}

// toolType returns the "type" of the request's tool called name ("" when
// it is not offered).
func toolType(body map[string]any, name string) string {
	tools, _ := body["tools"].([]any)
	for _, t := range tools {
		m, _ := t.(map[string]any)
		if m == nil {
			continue
		}
		n, _ := m["name"].(string)
		if fn, _ := m["function"].(map[string]any); fn != nil && n == "" {
			n, _ = fn["name"].(string) // the Chat Completions nesting
		}
		if n == name {
			typ, _ := m["type"].(string)
			return typ
		}
	}
	return ""
}

// reply streams one output item: the tool call of s, or its text.
func (r responsesAPI) reply(w http.ResponseWriter, body map[string]any, s step, n int) {
	id := "resp_script_" + strconv.Itoa(n)
	var item map[string]any
	switch {
	case s.Tool == "":
		item = map[string]any{"type": "message", "role": "assistant", "id": "msg_" + id,
			"content": []any{map[string]any{"type": "output_text", "text": s.Text, "annotations": []any{}}}}
	case toolType(body, s.Tool) == "custom":
		input, _ := s.Args["input"].(string)
		item = map[string]any{"type": "custom_tool_call", "id": "ctc_" + id, "call_id": "call_script_" + strconv.Itoa(n),
			"name": s.Tool, "input": input, "status": "completed"}
	default:
		item = map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": "call_script_" + strconv.Itoa(n),
			"name": s.Tool, "arguments": mustJSON(s.Args), "status": "completed"}
	}
	r.stream(w, id, item)
}

// side answers with a text message, or 404 for a path that is not
// /responses (model discovery falls back to the built-in list).
func (r responsesAPI) side(w http.ResponseWriter, path string, _ map[string]any) {
	if !strings.HasSuffix(path, "/responses") {
		http.NotFound(w, nil)
		return
	}
	r.stream(w, "resp_side", map[string]any{"type": "message", "role": "assistant", "id": "msg_side",
		"content": []any{map[string]any{"type": "output_text", "text": "ok", "annotations": []any{}}}})
}

// stream writes one response holding item.
func (responsesAPI) stream(w http.ResponseWriter, id string, item map[string]any) {
	sseStart(w)
	sseEvent(w, "response.created", map[string]any{"type": "response.created",
		"response": map[string]any{"id": id, "object": "response", "status": "in_progress"}})
	sseEvent(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	sseEvent(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	sseEvent(w, "response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": id, "object": "response", "status": "completed", "output": []any{item},
		"usage": map[string]any{"input_tokens": 100, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 10, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 110}}})
}
