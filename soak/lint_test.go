package soak

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// shownLine is one ERROR line of a lint block.
type shownLine struct {
	file  string // the <diagnostics file="…"> it is under, workspace-relative
	line  int    // 1-based
	other bool   // under "LSP errors detected in other files:"
	text  string // the whole line, "ERROR [12:5] message (code)"
}

// answer is a hook's answer as the model reads it.
type answer struct {
	block string      // the lint block ("" when the hook printed nothing)
	lines []shownLine // its ERROR lines
	notes []string    // its "lsp-hook: …" lines
	cut   bool        // a cap cut it: "... and N more", "... output truncated"
}

// Lint block lines, verbatim from DESIGN.md "The lint block" and
// diag/lint.go.
const (
	headerThisFile   = "LSP errors detected in this file, please fix:"
	headerTheseFiles = "LSP errors detected in these files, please fix:"
	headerOther      = "LSP errors detected in other files:"
	notePrefix       = "lsp-hook: "
)

var (
	diagLineRE = regexp.MustCompile(`^(ERROR|WARN|INFO|HINT) \[(\d+):(\d+)\] `)
	cutLineRE  = regexp.MustCompile(`^\.\.\. (and \d+ more( files with errors)?|output truncated \(limit reached\))$`)
	unescaper  = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&")
)

// parseAnswer reads what `lsp-hook hook claude` printed: nothing, or one
// {"hookSpecificOutput": {"hookEventName": "PostToolUse" | "PostToolBatch",
// "additionalContext": "<lint block>"}} object and nothing else (the
// answer of ModeContext, hooks/claude.go). Any other shape, and any line
// of the block outside DESIGN.md's format, is an error.
func parseAnswer(stdout string) (answer, error) {
	if stdout == "" {
		return answer{}, nil
	}
	var out struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil || dec.More() {
		return answer{}, fmt.Errorf("stdout is not one hook answer object (%v): %q", err, stdout)
	}
	if ev := out.HookSpecificOutput.HookEventName; ev != "PostToolUse" && ev != "PostToolBatch" {
		return answer{}, fmt.Errorf("hookEventName %q, want PostToolUse or PostToolBatch", ev)
	}
	if out.HookSpecificOutput.AdditionalContext == "" {
		return answer{}, fmt.Errorf("an answer with an empty lint block: %q", stdout)
	}
	return parseBlock(out.HookSpecificOutput.AdditionalContext)
}

// parseBlock splits a lint block into its ERROR lines and notes; "" is
// the empty answer.
func parseBlock(block string) (answer, error) {
	a := answer{block: block}
	if block == "" {
		return a, nil
	}
	file, other := "", false
	for _, l := range strings.Split(block, "\n") {
		switch {
		case l == headerThisFile || l == headerTheseFiles:
			other = false
		case l == headerOther:
			other = true
		case strings.HasPrefix(l, "<diagnostics file=") && strings.HasSuffix(l, ">"):
			q, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(l, "<diagnostics file="), ">"))
			if err != nil {
				return a, fmt.Errorf("lint block line %q: %w", l, err)
			}
			file = unescaper.Replace(q)
		case l == "</diagnostics>":
			file = ""
		case strings.HasPrefix(l, notePrefix):
			a.notes = append(a.notes, l)
		case cutLineRE.MatchString(l):
			a.cut = true
		case file != "" && diagLineRE.MatchString(l):
			m := diagLineRE.FindStringSubmatch(l)
			if m[1] != "ERROR" {
				continue // shown only when configured; the soak judges errors
			}
			n, _ := strconv.Atoi(m[2])
			a.lines = append(a.lines, shownLine{file: file, line: n, other: other, text: l})
		default:
			return a, fmt.Errorf("lint block line %q is not in DESIGN.md's format", l)
		}
	}
	return a, nil
}

// files returns the files of a's ERROR lines, each with its lines.
func (a answer) files() map[string]map[int]bool {
	out := make(map[string]map[int]bool)
	for _, l := range a.lines {
		if out[l.file] == nil {
			out[l.file] = make(map[int]bool)
		}
		out[l.file][l.line] = true
	}
	return out
}

// Notes that own up to a whole answer missing, verbatim from
// engine/render.go (unknownNote, brokenNote), engine/engine.go
// (fallbackNotes: the daemon lost, a server did not check the change)
// and hooks/check.go.
var (
	// wholeAnswerMissing: a server gave no whole fresh answer, or a shell
	// command's files were cut to a cap; any file's errors may be missing.
	wholeAnswerMissing = []string{"errors it would report are unknown, not absent", " was still running ", " is broken (", "; only the first "}
	// importersMissing: files importing a changed one were not checked
	// again; the changed files' own answers are whole.
	importersMissing = []string{"were not checked again"}
)

// excuses reports whether a's notes own up to f's errors not being shown:
// the answer was cut, a note says a server's answer is not whole (for a
// file the move did not change, also that importers went unchecked), or a
// note names f. A note about anything else — how a shell command's files
// were found, a linter not run — excuses nothing: the model reading it
// takes the files it does not name as checked.
func (a answer) excuses(f string, changed bool) bool {
	if a.cut {
		return true
	}
	for _, n := range a.notes {
		switch {
		case containsAny(n, wholeAnswerMissing), !changed && containsAny(n, importersMissing), names(n, f):
			return true
		}
	}
	return false
}

// names reports whether note names the file f (workspace-relative,
// slash-separated) as a whole path: relative, or the end of an absolute
// one. "a.go" is not named by "data.go", nor "api.ts" by "src/api.ts".
func names(note, f string) bool {
	const delims = " (\"'"
	for i := 0; ; {
		j := strings.Index(note[i:], f)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(f)
		token := note[strings.LastIndexAny(note[:start], delims)+1 : start] // what the path follows within its word
		before := token == "" || strings.HasPrefix(token, "/") && strings.HasSuffix(token, "/")
		after := end == len(note) || strings.ContainsRune(delims+"):;,.", rune(note[end]))
		if before && after {
			return true
		}
		i = start + 1
	}
}

// containsAny reports whether s contains one of subs.
func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// timedOut reports whether a note says a server gave no fresh answer.
func (a answer) timedOut() bool {
	for _, n := range a.notes {
		if strings.Contains(n, "no fresh diagnostics") {
			return true
		}
	}
	return false
}

// hookError is what was wrong with a hook process as a protocol matter
// (exit status, stderr noise, the answer's shape), or "".
func hookError(r hookRun) string {
	switch {
	case r.err != nil:
		return r.err.Error()
	case r.exit != 0:
		return fmt.Sprintf("exit %d, want 0 always; stderr: %s", r.exit, bytes.TrimSpace([]byte(r.stderr)))
	}
	return ""
}
