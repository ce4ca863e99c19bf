package agentsuite

import (
	"bufio"
	"fmt"
	"html"
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

// judge checks the request after each tool call: the compiler's errors,
// once each, after a broken write or edit, in the block as lsp-hook
// renders it (verbatim agents) or readable without entities (the others);
// no block after a clean one. It logs the gap from the tool call to that
// request (the first is cold). While a.pending names the product change
// an agent waits for, a failing step is logged as a known gap, and a run
// whose every broken step passes is an error: the marker is out of date.
func judge(t *testing.T, a agent, script []step, turns []turn) {
	t.Helper()
	broken, failed := 0, 0
	for i := 1; i < len(turns) && i < len(script); i++ {
		prev, cur, name := turns[i-1], turns[i], script[i-1].Name
		label := "warm"
		if i == 1 {
			label = "cold"
		}
		t.Logf("%s %s: %s → next request %s (%s)", a.name, name, script[i-1].Tool, cur.Gap.Round(time.Millisecond), label)
		if i == 1 {
			t.Logf("%s: what the model read after the first %s:\n%s", a.name, script[0].Tool, around(cur.Text, blockMarker))
		}
		want := expectedBlock(t, cur.File, mainCode)
		if a.recordOnly {
			added := strings.Count(cur.Text, blockMarker) - strings.Count(prev.Text, blockMarker)
			t.Logf("%s after %s: %d new block(s); the compiler's block:\n%s", a.name, name, added, want)
			continue
		}
		if want != "" {
			broken++
		}
		problems := judgeStep(a, want, prev.Text, cur.Text)
		if len(problems) == 0 {
			continue
		}
		if want != "" {
			failed++
		}
		if a.pending != "" {
			t.Logf("%s after %s: KNOWN GAP (%s): %s\n%s", a.name, name, a.pending, strings.Join(problems, "; "), around(cur.Text, blockMarker))
			continue
		}
		t.Errorf("%s after %s: %s\n--- the compiler's block\n%s\n--- what the model read\n%s",
			a.name, name, strings.Join(problems, "; "), want, around(cur.Text, blockMarker))
	}
	if a.pending != "" && broken > 0 && failed == 0 {
		t.Errorf("%s: every block arrived as it should: remove pending %q from the agent's row", a.name, a.pending)
	}
}

// judgeStep returns what is wrong with the request cur after a tool call,
// prev being the request before it: want is the compiler's block ("" for
// a clean file).
func judgeStep(a agent, want, prev, cur string) []string {
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
	if a.verbatim {
		if n := strings.Count(cur, want) - strings.Count(prev, want); n != 1 {
			problems = append(problems, fmt.Sprintf("the compiler's block arrived %d time(s), want once", n))
		}
		return problems
	}
	for _, line := range strings.Split(want, "\n") {
		if !strings.HasPrefix(line, "ERROR [") {
			continue
		}
		plain := html.UnescapeString(line) // the model should read the message as the compiler wrote it
		if n := strings.Count(cur, plain) - strings.Count(prev, plain); n != 1 {
			problems = append(problems, fmt.Sprintf("%q arrived %d time(s), want once", plain, n))
		}
	}
	near := around(cur, blockMarker)
	for _, e := range []string{"&lt;", "&gt;", "&amp;", "&quot;"} {
		if strings.Contains(near, e) {
			problems = append(problems, "the model reads the entity "+e)
		}
	}
	return problems
}
