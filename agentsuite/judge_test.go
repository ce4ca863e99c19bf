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
