package mcp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnifiedDiff: each diff, applied by git apply to the old text, gives
// the new one (git is the judge of the format).
func TestUnifiedDiff(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	long := strings.Repeat("line\n", 30)
	for _, c := range []struct{ name, old, new string }{
		{"one line", "a\nb\nc\n", "a\nB\nc\n"},
		{"two hunks", "1\n" + long + "2\n" + long + "3\n", "1\n" + long + "two\n" + long + "three\n"},
		{"insert at start", "a\nb\n", "x\na\nb\n"},
		{"delete at end", "a\nb\nc\n", "a\nb\n"},
		{"no final newline", "a\nb", "a\nc"},
		{"add final newline", "a\nb", "a\nb\n"},
		{"from empty", "", "a\nb\n"},
		{"to empty", "a\nb\n", ""},
		{"rename of a word on many lines", strings.Repeat("done()\nkeep\n", 20), strings.Repeat("finish()\nkeep\n", 20)},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f.txt")
			if err := os.WriteFile(p, []byte(c.old), 0o644); err != nil {
				t.Fatal(err)
			}
			from, to := "a/f.txt", "b/f.txt"
			if c.old == "" {
				from = "/dev/null"
				os.Remove(p)
			}
			if c.new == "" {
				to = "/dev/null"
			}
			d := unifiedDiff(from, to, c.old, c.new)
			if from == "/dev/null" || to == "/dev/null" {
				d = "diff --git a/f.txt b/f.txt\n" + map[bool]string{true: "new file mode 100644\n", false: "deleted file mode 100644\n"}[from == "/dev/null"] + d
			}
			cmd := exec.Command("git", "apply", "-")
			cmd.Dir, cmd.Stdin = dir, strings.NewReader(d)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git apply: %v\n%s\ndiff:\n%s", err, out, d)
			}
			got, _ := os.ReadFile(p)
			if string(got) != c.new {
				t.Fatalf("applied diff gives %q, want %q; diff:\n%s", got, c.new, d)
			}
		})
	}
}
