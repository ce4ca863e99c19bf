package agentsuite

import (
	"io"
	"net/http"
	"strconv"
	"strings"
)

// chatAPI is the OpenAI Chat Completions API (POST …/chat/completions)
// as Copilot CLI's and OpenCode's bring-your-own-provider settings use it:
// with "stream": true, chat.completion.chunk events ending in data:
// [DONE]; otherwise one chat.completion
// (https://platform.openai.com/docs/api-reference/chat). A tool call is a
// function call whose arguments are a JSON string.
type chatAPI struct {
	// writeTool is the agent's write tool: a request offering it is a turn.
	writeTool string
}

var _ dialect = chatAPI{}

// isTurn: a request that offers the agent's write tool.
func (c chatAPI) isTurn(path string, body map[string]any) bool {
	return strings.HasSuffix(path, "/chat/completions") && toolType(body, c.writeTool) != ""
}

// reply writes s as a tool call or a text.
func (c chatAPI) reply(w http.ResponseWriter, body map[string]any, s step, n int) {
	msg := map[string]any{"role": "assistant", "content": s.Text}
	finish := "stop"
	if s.Tool != "" {
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": "call_script_" + strconv.Itoa(n), "type": "function",
			"function": map[string]any{"name": s.Tool, "arguments": mustJSON(s.Args)}}}}
		finish = "tool_calls"
	}
	c.write(w, body, msg, finish)
}

// side answers with a text, or 404 for a path that is not a completion.
func (c chatAPI) side(w http.ResponseWriter, path string, body map[string]any) {
	if !strings.HasSuffix(path, "/chat/completions") {
		http.NotFound(w, nil)
		return
	}
	c.write(w, body, map[string]any{"role": "assistant", "content": "ok"}, "stop")
}

// write answers with msg as one chunk (then the finish chunk and [DONE])
// or as one completion.
func (chatAPI) write(w http.ResponseWriter, body map[string]any, msg map[string]any, finish string) {
	model, _ := body["model"].(string)
	usage := map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
	if stream, _ := body["stream"].(bool); !stream {
		writeJSON(w, map[string]any{"id": "chatcmpl-script", "object": "chat.completion", "created": 1, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	chunk := func(delta map[string]any, fin any, u any) map[string]any {
		c := map[string]any{"id": "chatcmpl-script", "object": "chat.completion.chunk", "created": 1, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": fin}}}
		if u != nil {
			c["usage"] = u
		}
		return c
	}
	sseStart(w)
	sseEvent(w, "", chunk(msg, nil, nil))
	sseEvent(w, "", chunk(map[string]any{}, finish, usage))
	io.WriteString(w, "data: [DONE]\n\n")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// toolNames lists the names of the tools a request offers, in either
// API's shape, for the log.
func toolNames(body map[string]any) []string {
	var names []string
	tools, _ := body["tools"].([]any)
	for _, t := range tools {
		m, _ := t.(map[string]any)
		n, _ := m["name"].(string)
		if fn, _ := m["function"].(map[string]any); fn != nil && n == "" {
			n, _ = fn["name"].(string)
		}
		if decls, _ := m["functionDeclarations"].([]any); decls != nil {
			for _, d := range decls {
				dm, _ := d.(map[string]any)
				dn, _ := dm["name"].(string)
				names = append(names, dn)
			}
			continue
		}
		names = append(names, n)
	}
	return names
}
