package agentsuite

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The scripted edits of main.go, the file every session writes. helper.go
// (greeting) is in the workspace from the start.
const (
	// brokenMain is the first write: a string assigned to an int.
	brokenMain = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar n int = \"seven\"\n\tfmt.Println(n, greeting())\n}\n"
	// editOld and editNew are the edit: it fixes the first error and
	// makes another one, whose message holds < (a channel of the wrong
	// element type assigned to a receive-only channel).
	editOld = "\tvar n int = \"seven\"\n"
	editNew = "\tvar n int = 7\n\tvar c <-chan string = make(chan int)\n\t_ = c\n"
	// cleanOld and cleanNew turn the edited file into cleanMain, for an
	// agent whose write tool refuses an existing file.
	cleanOld = "\tvar n int = 7\n\tvar c <-chan string = make(chan int)\n\t_ = c\n\tfmt.Println(n, greeting())\n"
	cleanNew = "\tfmt.Println(7, greeting())\n"
	// cleanMain is the last write: no error at all.
	cleanMain = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(7, greeting())\n}\n"
	// mainCode is gopls's code for both errors (the compiler prints none).
	mainCode = "IncompatibleAssign"
	// blockHeader opens the lint block for the written file.
	blockHeader = "LSP errors detected in this file, please fix:\n<diagnostics file=\"main.go\">\n"
)

// compilerLine matches one error of `go build`: ./main.go:6:14: message.
var compilerLine = regexp.MustCompile(`^\./(main\.go):(\d+):(\d+): (.*)$`)

// expectedBlock returns the lint block for main.go holding content, as
// the compiler judges it: each `go build` error of main.go as
// `ERROR [line:col] message (code)`, in a module like the workspace. ""
// means the file compiles.
func expectedBlock(t *testing.T, content, code string) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/agentdemo\n\ngo 1.22\n")
	writeFile(t, filepath.Join(dir, "helper.go"), "package main\n\n// greeting is what main prints.\nfunc greeting() string { return \"hello\" }\n")
	writeFile(t, filepath.Join(dir, "main.go"), content)
	cmd := exec.Command("go", "build", "-o", os.DevNull, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	if err == nil {
		return ""
	}
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if m := compilerLine.FindStringSubmatch(sc.Text()); m != nil {
			lines = append(lines, fmt.Sprintf("ERROR [%s:%s] %s (%s)", m[2], m[3], escapeBlock(m[4]), code))
		}
	}
	if len(lines) == 0 {
		t.Fatalf("go build failed without an error in main.go:\n%s", out)
	}
	return blockHeader + strings.Join(lines, "\n") + "\n</diagnostics>"
}

// escapeBlock escapes a message as the lint block does (DESIGN.md, "The
// lint block": <, > and &).
func escapeBlock(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// blockMarker is in every lint block, whatever the agent's rendering.
const blockMarker = "LSP errors detected"

// plainBlock is want as lsp-hook renders it for an agent that escapes
// the hook text (diag.PlainLintBlock): "diagnostics for P:" for the
// <diagnostics file="P"> line, no closing tag, and in the error lines the
// entities and angle brackets as U+FF1C and U+FF1E.
func plainBlock(want string) string {
	if want == "" {
		return ""
	}
	var out []string
	for _, l := range strings.Split(want, "\n") {
		switch {
		case l == "</diagnostics>":
			continue
		case strings.HasPrefix(l, `<diagnostics file="`):
			l = "diagnostics for " + strings.TrimSuffix(strings.TrimPrefix(l, `<diagnostics file="`), `">`) + ":"
		default:
			l = strings.NewReplacer("&lt;", "\uFF1C", "&gt;", "\uFF1E", "&amp;", "&").Replace(l)
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// blockFor is the compiler's block for content as agent a's model should
// read it ("" for a file that compiles, and for no file: content "").
func blockFor(t *testing.T, a agent, content string) string {
	if content == "" {
		return ""
	}
	want := expectedBlock(t, content, mainCode)
	if a.plain {
		return plainBlock(want)
	}
	return want
}

// judge walks the session's requests as the script answered them. After
// a tool call the next request must carry the compiler's errors once, in
// the agent's rendering and without entities, or no block after a clean
// file. After the model ends its turn (a text step) there is no request
// more, unless the agent has the Stop gate and errors the session
// introduced remain (the compiler's block differs from the one before the
// session): then the gate blocks that end once, the next request carries
// its reason naming the compiler's errors, and the next end of the turn
// (stop_hook_active) ends the session. While a.pending names the product
// change a row waits for, its failures are logged as known gaps, and a
// run without any is an error: the marker is out of date.
func judge(t *testing.T, a agent, script []step, turns []turn) {
	t.Helper()
	judged, failed := 0, 0
	fail := func(format string, args ...any) {
		failed++
		if a.pending != "" {
			t.Logf("%s: KNOWN GAP (%s): %s", a.name, a.pending, fmt.Sprintf(format, args...))
			return
		}
		t.Errorf(format, args...)
	}
	before := blockFor(t, a, a.before)
	stopped := false // the Stop gate blocked an end of the turn
	for i := 0; i < len(turns); i++ {
		st := script[min(i, len(script)-1)]
		if st.Tool == "" {
			want := blockFor(t, a, turns[i].File)
			if !a.stopGate || stopped || want == "" || want == before {
				if i+1 < len(turns) {
					fail("%s: the model ended its turn (%s) and %d more request(s) followed; want none", a.name, st.Name, len(turns)-i-1)
				}
				break
			}
			stopped = true
			judged++
			if i+1 == len(turns) {
				fail("%s: the turn ended (%s) on errors the session introduced and no Stop gate request followed; want one carrying:\n%s", a.name, st.Name, want)
				break
			}
			if msg := judgeStopTurn(t, a, st.Name, want, turns[i], turns[i+1]); msg != "" {
				fail("%s", msg)
			}
			continue
		}
		if i+1 == len(turns) {
			break // runAgent reports the missing turns
		}
		prev, cur, name := turns[i], turns[i+1], st.Name
		label := "warm"
		if i == 0 {
			label = "cold"
			t.Logf("%s: what the model read after the first %s:\n%s", a.name, st.Tool, around(cur.Text, blockMarker))
		}
		t.Logf("%s %s: %s → next request %s (%s)", a.name, name, st.Tool, cur.Gap.Round(time.Millisecond), label)
		want := blockFor(t, a, cur.File)
		if st.Quiet {
			want = ""
		}
		if want != "" {
			judged++
		}
		if problems := judgeStep(want, prev.Text, cur.Text, a.plain); len(problems) > 0 {
			fail("%s after %s: %s\n--- the compiler's block\n%s\n--- what the model read\n%s",
				a.name, name, strings.Join(problems, "; "), want, around(cur.Text, blockMarker))
		}
	}
	if a.pending != "" && judged > 0 && failed == 0 {
		t.Errorf("%s: every block arrived as it should: remove pending %q from the agent's row", a.name, a.pending)
	}
}

// judgeStep returns what is wrong with the request cur after a tool call,
// prev being the request before it: want is the compiler's block in the
// agent's rendering ("" for a clean file); plain: that rendering has no
// entities, nor may the text around it.
func judgeStep(want, prev, cur string, plain bool) []string {
	var problems []string
	added := strings.Count(cur, blockMarker) - strings.Count(prev, blockMarker)
	if want == "" {
		if added != 0 {
			problems = append(problems, fmt.Sprintf("%d new lint block(s) for a clean file, want none", added))
		}
		return problems
	}
	if added != 1 {
		problems = append(problems, fmt.Sprintf("%d new lint blocks, want 1", added))
	}
	if n := strings.Count(cur, want) - strings.Count(prev, want); n != 1 {
		problems = append(problems, fmt.Sprintf("the compiler's block arrived %d time(s), want once", n))
	}
	if !plain {
		return problems // the verbatim block escapes < > & itself (DESIGN.md "The lint block")
	}
	near := around(cur, blockMarker)
	for _, e := range []string{"&lt;", "&gt;", "&amp;", "&quot;"} {
		if strings.Contains(near, e) {
			problems = append(problems, "the model reads the entity "+e)
		}
	}
	return problems
}
