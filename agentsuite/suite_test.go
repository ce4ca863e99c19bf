// Package agentsuite drives the real agent CLIs (Claude Code, Gemini CLI,
// Codex, Copilot CLI, OpenCode), pinned in tools/agents and installed by
// `make tools` into .tools/agents, against a scripted model server on
// 127.0.0.1, and judges what reaches the model after each write against
// the Go compiler.
//
// Each CLI runs once, non-interactively, in a fresh Go module set up only
// with `lsp-hook install <agent> --project` and the agent's own trust
// step, with its own HOME and XDG directories and telemetry and update
// checks off. The scripted model asks for a write of main.go holding a
// type error, then an edit that trades it for another, then a clean
// write, then ends the turn; the request after each tool call must carry
// the lint block for the error `go build` reports, exactly once, and
// nothing after the clean write. Where the agent has the Stop gate
// (Claude Code, Codex), a turn that ends on errors the session introduced
// is blocked once, and the next request carries the block; a second end
// of the turn ends the session.
//
// Rows that wait for a product change name it (pending): their gaps are
// logged, not failed, and the row fails once they are gone. Every run
// logs, per CLI, the time from each tool call to the next model request
// (the first cold), each hook process's time, and the SessionStart hook's.
//
// Flags and environment: -args -record rewrites the hook payloads each
// CLI sent into testdata/agents/<agent>/cli-*.json;
// AGENTSUITE_MODEL_LOG=dir keeps every request the model received.
//
// The package holds tests only and imports nothing of lsp-hook's: it runs
// the binary. Without the agents installed it skips, saying how to install
// them; under `make test` (LSP_HOOK_REQUIRE_AGENTS=1) a missing CLI fails
// the run.
package agentsuite

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recordFlag writes each CLI's hook payloads into testdata/agents/<agent>/.
var recordFlag = flag.Bool("record", false, "write the hook payloads each CLI sent into testdata/agents/<agent>/cli-*.json")

// Set up once by TestMain.
var (
	moduleRoot string // the directory holding this module's go.mod
	realBin    string // the lsp-hook binary built by TestMain
	agentsBin  string // .tools/agents/node_modules/.bin
	hostGo     goCaches
)

// goCaches are the host's Go build, module and gopls caches, shared with
// every CLI's run so that "cold" measures a cold daemon and gopls process,
// not a cold compile of the standard library.
type goCaches struct {
	gocache, gomodcache, goplscache, goBinDir string
}

// TestMain builds lsp-hook into a temporary directory and runs the tests.
func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(runMain(m))
}

// runMain is TestMain's body, so that deferred clean-ups run before exit.
func runMain(m *testing.M) int {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	moduleRoot = filepath.Dir(wd)
	agentsBin = filepath.Join(moduleRoot, ".tools", "agents", "node_modules", ".bin")
	tmp, err := os.MkdirTemp("", "agentsuite-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(tmp)
	realBin = filepath.Join(tmp, "lsp-hook")
	if runtime.GOOS == "windows" {
		realBin += ".exe"
	}
	build := exec.Command("go", "build", "-o", realBin, "./cmd/lsp-hook")
	build.Dir = moduleRoot
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building lsp-hook: %v\n%s", err, out)
		return 2
	}
	if hostGo, err = readGoCaches(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return m.Run()
}

// readGoCaches asks go env for the host's caches.
func readGoCaches() (goCaches, error) {
	goExe, err := exec.LookPath("go")
	if err != nil {
		return goCaches{}, fmt.Errorf("finding go: %w", err)
	}
	out, err := exec.Command(goExe, "env", "GOCACHE", "GOMODCACHE").Output()
	if err != nil {
		return goCaches{}, fmt.Errorf("running go env: %w", err)
	}
	f := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(f) != 2 {
		return goCaches{}, fmt.Errorf("go env GOCACHE GOMODCACHE printed %q", out)
	}
	c := goCaches{gocache: f[0], gomodcache: f[1], goBinDir: filepath.Dir(goExe)}
	c.goplscache = os.Getenv("GOPLSCACHE")
	if c.goplscache == "" {
		if d, err := os.UserCacheDir(); err == nil {
			c.goplscache = filepath.Join(d, "gopls")
		}
	}
	return c, nil
}

// requireAgent skips the test when the agent's CLI is not installed, or
// fails it when LSP_HOOK_REQUIRE_AGENTS=1 (as `make test` sets), with the
// reason either way.
func requireAgent(t *testing.T, exe string) string {
	t.Helper()
	p := filepath.Join(agentsBin, exe)
	fi, err := os.Stat(p)
	if err == nil && !fi.IsDir() {
		if _, gerr := exec.LookPath(filepath.Join(moduleRoot, ".tools", "bin", "gopls")); gerr != nil {
			err = fmt.Errorf("gopls is not in .tools/bin: %w", gerr)
		} else {
			return p
		}
	}
	if os.Getenv("LSP_HOOK_REQUIRE_AGENTS") == "1" {
		t.Fatalf("%s is required (LSP_HOOK_REQUIRE_AGENTS=1) but cannot be run: %v; `make tools` installs the agent CLIs into .tools/agents", exe, err)
	}
	t.Skipf("%s is not installed (%v): run `make tools` (npm ci --prefix .tools/agents from tools/agents), or `make agents-test`", exe, err)
	return ""
}
