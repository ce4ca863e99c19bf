package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// goColumnRE is a go build error with its column (UTF-8 bytes, as the Go
// compiler counts them).
var goColumnRE = regexp.MustCompile(`(?m)^(?:\./)?([^\s:]+\.go):(\d+):(\d+): `)

// TestReviewdog pipes diagnose's rdjsonl and rdjson into the real reviewdog
// (v0.21.0, `make tools`), as a CI job does, without a diff
// (-filter-mode=nofilter) and with `-diff "git diff"` (the default filter:
// added lines), and reads what reviewdog kept (-reporter=rdjsonl): every
// error go build reports must come through at go build's line and column —
// bytes on a line with non-ASCII text before the error, where characters
// and bytes differ. Once the broken line is committed, the diff filter must
// drop it.
func TestReviewdog(t *testing.T) {
	e2e(t)
	testdir.GitEnv(t) // an author for the commits, and no user config
	requireExe(t, "gopls")
	requireExe(t, "reviewdog")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath()})
	git := func(args ...string) { t.Helper(); testdir.Git(t, w.root, args...) }
	git("add", "-A")
	git("commit", "-qm", "clean")
	// The error sits after "日本語" (9 bytes, 3 characters) on its line.
	broken := "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar label, n = \"日本語\", undefinedName\n\tfmt.Println(label, n)\n}\n"
	if err := os.WriteFile(w.path("main.go"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = w.root
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off")
	out, _ := cmd.CombinedOutput()
	var want []string
	for _, m := range goColumnRE.FindAllStringSubmatch(string(out), -1) {
		want = append(want, m[1]+":"+m[2]+":"+m[3])
	}
	if len(want) == 0 {
		t.Fatalf("go build reports no error:\n%s", out)
	}
	outputs := map[string]string{}
	for _, format := range []string{"rdjsonl", "rdjson"} {
		r := w.run("", nil, "diagnose", "--no-daemon", "--format", format, "main.go")
		if r.exit != 1 {
			t.Fatalf("diagnose --format %s exited %d; stderr:\n%s", format, r.exit, r.stderr)
		}
		outputs[format] = r.stdout
		for _, filter := range []string{"-filter-mode=nofilter", "-diff=git diff"} {
			seen, said := reviewdog(t, w.root, format, filter, r.stdout)
			for _, p := range want {
				if !slices.Contains(seen, p) {
					t.Errorf("reviewdog -f=%s %s: go build's error at %s not among %v; reviewdog said:\n%s\nour %s:\n%s",
						format, filter, p, seen, said, format, r.stdout)
				}
			}
		}
	}
	git("commit", "-qam", "broken")
	for format, out := range outputs {
		if seen, said := reviewdog(t, w.root, format, "-diff=git diff", out); len(seen) > 0 {
			t.Errorf("reviewdog -f=%s -diff=git diff kept %v from lines the diff does not touch:\n%s", format, seen, said)
		}
	}
}

// reviewdog runs `reviewdog -f=format -reporter=rdjsonl filter` in dir on
// input and returns the "path:line:column" of each finding it kept, and
// its output.
func reviewdog(t *testing.T, dir, format, filter, input string) ([]string, string) {
	t.Helper()
	cmd := exec.Command("reviewdog", "-f="+format, "-reporter=rdjsonl", "-fail-level=none", filter)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(input)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("reviewdog -f=%s %s: %v\n%s", format, filter, err, out)
	}
	var seen []string
	for _, l := range lines(string(out)) {
		var d struct {
			Location struct {
				Path  string
				Range struct{ Start struct{ Line, Column int } }
			}
		}
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("reviewdog's rdjsonl line %q: %v", l, err)
		}
		seen = append(seen, fmt.Sprintf("%s:%d:%d", d.Location.Path, d.Location.Range.Start.Line, d.Location.Range.Start.Column))
	}
	return seen, string(out)
}
