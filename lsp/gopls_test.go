package lsp

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
)

// requireServer skips the test when name is not installed, or fails it when
// LSP_HOOK_REQUIRE_SERVERS=1 (as `make test` sets).
func requireServer(t *testing.T, name string) {
	t.Helper()
	if _, err := LookPath(name); err != nil {
		if os.Getenv("LSP_HOOK_REQUIRE_SERVERS") == "1" {
			t.Fatalf("%s is required (LSP_HOOK_REQUIRE_SERVERS=1): %v", name, err)
		}
		t.Skipf("%s not installed: %v", name, err)
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func TestGoplsFreshness(t *testing.T) {
	requireServer(t, "gopls")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{
		"go.mod":   "module example.com/demo\n\ngo 1.22\n",
		"main.go":  "package main\n\nfunc main() {\n\tprintln(greet(\"x\"))\n}\n",
		"greet.go": "package main\n\nfunc greet(name string) string { return \"hi \" + name }\n",
	})
	cfg := config.Default()
	m := NewManager(cfg, dir, testLogger(t))
	t.Cleanup(m.Shutdown)

	mainPath := filepath.Join(dir, "main.go")
	broken := "package main\n\nfunc main() {\n\tvar n int = \"日本\"\n\tprintln(n, greet(\"x\"))\n}\n"
	fixed := "package main\n\nfunc main() {\n\tvar n int = 1\n\tprintln(n, greet(\"x\"))\n}\n"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	for i := 0; i < 3; i++ {
		writeFiles(t, dir, map[string]string{"main.go": broken})
		out := m.Check(ctx, []Doc{{Path: mainPath, Text: []byte(broken)}}, 0)
		if len(out) != 1 || out[0].Freshness != Fresh {
			t.Fatalf("round %d broken: outcome %+v", i, out)
		}
		ds := out[0].Files[mainPath]
		if len(ds) != 1 || ds[0].Line != 4 || ds[0].Column != 14 || !strings.Contains(ds[0].Message, "cannot use") {
			t.Fatalf("round %d broken: diagnostics %+v", i, ds)
		}
		writeFiles(t, dir, map[string]string{"main.go": fixed})
		out = m.Check(ctx, []Doc{{Path: mainPath}}, 0)
		if len(out) != 1 || out[0].Freshness != Fresh {
			t.Fatalf("round %d fixed: outcome %+v", i, out)
		}
		if ds := out[0].Files[mainPath]; len(ds) != 0 {
			t.Fatalf("round %d fixed: stale diagnostics %+v", i, ds)
		}
	}

	// A change in one file that breaks another: write mode's "other files".
	greetPath := filepath.Join(dir, "greet.go")
	twoArgs := "package main\n\nfunc greet(name, suffix string) string { return \"hi \" + name + suffix }\n"
	writeFiles(t, dir, map[string]string{"greet.go": twoArgs})
	out := m.Check(ctx, []Doc{{Path: greetPath}}, 0)
	if len(out) != 1 || out[0].Freshness != Fresh {
		t.Fatalf("greet change: outcome %+v", out)
	}
	others := out[0].Others[mainPath]
	if len(others) != 1 || !strings.Contains(others[0].Message, "not enough arguments") {
		t.Fatalf("other file diagnostics = %+v (all others %+v)", others, out[0].Others)
	}
	st := m.Status()
	if len(st) != 1 || st[0].State != StateActive || st[0].Pid == 0 {
		t.Fatalf("status = %+v", st)
	}
}
