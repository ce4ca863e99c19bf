package agentsuite

import (
	"net/http"
	"strings"
)

// geminiAPI is the Gemini API as Gemini CLI uses it with an API key and
// GOOGLE_GEMINI_BASE_URL: POST /v1beta/models/<model>:streamGenerateContent?alt=sse
// for the main loop (each event a GenerateContentResponse), plain
// :generateContent for its side calls (routing, next-speaker checks) and
// :countTokens. Shapes follow
// https://ai.google.dev/api/generate-content (candidates[].content.parts[]
// with text or functionCall{name, args}; finishReason).
type geminiAPI struct{}

var _ dialect = geminiAPI{}

// isTurn: a streamed request that offers write_file.
func (geminiAPI) isTurn(path string, body map[string]any) bool {
	if !strings.HasSuffix(path, ":streamGenerateContent") {
		return false
	}
	tools, _ := body["tools"].([]any)
	for _, t := range tools {
		m, _ := t.(map[string]any)
		decls, _ := m["functionDeclarations"].([]any)
		for _, d := range decls {
			if dm, _ := d.(map[string]any); dm != nil && dm["name"] == "write_file" {
				return true
			}
		}
	}
	return false
}

// reply streams one candidate holding a functionCall part or a text part.
func (g geminiAPI) reply(w http.ResponseWriter, _ map[string]any, s step, _ int) {
	part := map[string]any{"text": s.Text}
	if s.Tool != "" {
		part = map[string]any{"functionCall": map[string]any{"name": s.Tool, "args": s.Args}}
	}
	sseStart(w)
	sseEvent(w, "", g.response(part))
}

// side answers countTokens with a count, a request for JSON (the CLI's
// model router and next-speaker check) with an object its schema accepts,
// and everything else with a text.
func (g geminiAPI) side(w http.ResponseWriter, path string, body map[string]any) {
	cfg, _ := body["generationConfig"].(map[string]any)
	schema, _ := cfg["responseJsonSchema"].(map[string]any)
	if schema == nil {
		schema, _ = cfg["responseSchema"].(map[string]any)
	}
	switch {
	case schema != nil && strings.HasSuffix(path, ":generateContent"):
		writeJSON(w, g.response(map[string]any{"text": mustJSON(fillSchema(schema, ""))}))
	case strings.HasSuffix(path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 100})
	case strings.HasSuffix(path, ":streamGenerateContent"):
		sseStart(w)
		sseEvent(w, "", g.response(map[string]any{"text": "ok"}))
	case strings.HasSuffix(path, ":generateContent"):
		writeJSON(w, g.response(map[string]any{"text": "ok"}))
	default:
		http.NotFound(w, nil)
	}
}

// response is a GenerateContentResponse with one candidate of one part.
func (geminiAPI) response(part map[string]any) map[string]any {
	return map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110},
		"modelVersion":  "gemini-2.5-pro",
	}
}

// fillSchema returns a value that the JSON schema s accepts: required
// properties filled, the first enum value (a next_speaker is "user", so
// the turn ends), "ok", false, 0 or [].
func fillSchema(s map[string]any, name string) any {
	if enum, _ := s["enum"].([]any); len(enum) > 0 {
		for _, e := range enum {
			if name == "next_speaker" && e == "user" {
				return e
			}
		}
		return enum[0]
	}
	switch t, _ := s["type"].(string); strings.ToLower(t) {
	case "object":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for k, v := range props {
			if ps, _ := v.(map[string]any); ps != nil {
				out[k] = fillSchema(ps, k)
			}
		}
		return out
	case "boolean":
		return false
	case "number", "integer":
		return 0
	case "array":
		return []any{}
	}
	return "ok"
}
