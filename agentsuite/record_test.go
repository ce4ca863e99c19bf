package agentsuite

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// record writes each hook payload into testdata/agents/<agent>/ as
// cli-[<row>-]<event>-<step>.json (a tool's event, named after the
// script's step that made it) or cli-[<row>-]<event>.json, where <row> is
// what the test row's name adds to the agent's (batch in claude-batch),
// in the form of the hand-made payloads beside them: the workspace as
// {{ROOT}}, the home directory as /home/dev.
func record(t *testing.T, a agent, s *session, script []step, pl []payload) {
	t.Helper()
	dir := filepath.Join(moduleRoot, "testdata", "agents", a.name)
	prefix := "cli-"
	if a.row != "" {
		prefix += strings.TrimPrefix(a.row, a.name+"-") + "-"
	}
	var calls []string // the step of each tool call, in order
	for _, st := range script {
		for range 1 + len(st.Also) {
			if st.Tool != "" && !st.Quiet { // no hook runs for a Read
				calls = append(calls, st.Name)
			}
		}
	}
	seen := map[string]int{}
	tools := 0
	for _, p := range pl {
		var ev map[string]any
		if err := json.Unmarshal(p.JSON, &ev); err != nil {
			t.Errorf("hook payload is not a JSON object: %v\n%s", err, p.JSON)
			continue
		}
		event := firstString(ev, "hook_event_name", "hookEventName")
		_, hasTool := ev["tool_name"]
		if _, ok := ev["toolName"]; ok {
			hasTool = true
		}
		if _, ok := ev["tool"]; ok { // OpenCode's plugin
			hasTool = true
		}
		switch {
		case event != "":
		case hasTool: // Copilot's own event names are not in its payloads
			event = "postToolUse"
		case ev["stopReason"] != nil:
			event = "agentStop"
		default:
			event = "unknown"
		}
		key := slug(event)
		if hasTool && tools < len(calls) {
			key += "-" + calls[tools]
			tools++
		}
		if seen[key]++; seen[key] > 1 {
			key += "-" + strconv.Itoa(seen[key])
		}
		var pretty bytes.Buffer // the CLI's own field order and escapes
		if err := json.Indent(&pretty, bytes.TrimSpace(p.JSON), "", "  "); err != nil {
			t.Fatal(err)
		}
		pretty.WriteByte('\n')
		text := strings.NewReplacer(s.ws, "{{ROOT}}", s.home, "/home/dev",
			strings.ReplaceAll(s.ws, "/", "-"), "-demo").Replace(pretty.String())
		writeFile(t, filepath.Join(dir, prefix+key+".json"), text)
	}
}

// firstString returns the first of keys that ev holds as a string.
func firstString(ev map[string]any, keys ...string) string {
	for _, k := range keys {
		if v, ok := ev[k].(string); ok && v != "" {
			return v
		}
	}
	return ""
}

// nonWord matches what a file name slug leaves out.
var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// slug turns PostToolUse into post-tool-use and write_file into write-file.
func slug(s string) string {
	s = regexp.MustCompile(`([a-z0-9])([A-Z])`).ReplaceAllString(s, "$1-$2")
	return strings.Trim(nonWord.ReplaceAllString(strings.ToLower(s), "-"), "-")
}
