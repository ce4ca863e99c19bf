package main_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/process"
)

// toolchainGoMod asks for a Go that does not exist yet: under
// GOTOOLCHAIN=auto the go command would fetch golang.org/toolchain
// v0.0.1-go1.99.0 from GOPROXY and run it.
const toolchainGoMod = "module example.com/demo\n\ngo 1.99.0\n\ntoolchain go1.99.0\n"

// TestUntrustedGoToolchain: a repository's go.mod that names a newer Go
// makes neither gopls nor go vet fetch or run a toolchain before
// `lsp-hook trust`, whether the daemon's GOTOOLCHAIN is unset or auto
// (stock Go's default), nor can GOFLAGS reach them; the Write of a broken
// Go file answers with gopls's "cannot load the workspace" note, never
// silence, and the daemon does not log gopls as fresh. Once trusted,
// gopls runs with the user's GOTOOLCHAIN and GOFLAGS again.
func TestUntrustedGoToolchain(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	requireExe(t, "go")
	// "" is unset for the go command (it reads an empty variable as unset;
	// childEnv can only add), which is $GOROOT/go.env's default: auto in
	// stock Go, local in some distributions' Go.
	for _, toolchain := range []string{"", "auto"} {
		name := "GOTOOLCHAIN=" + toolchain
		if toolchain == "" {
			name = "GOTOOLCHAIN unset"
		}
		t.Run(name, func(t *testing.T) {
			proxy := newRecordingProxy(t)
			w := newWorkspaceOf(t, "demo", "", []string{"GOPROXY=" + proxy.URL, "GOSUMDB=off",
				"GOTOOLCHAIN=" + toolchain, "GOFLAGS=-buildvcs=false"})
			w.writeFile("go.mod", toolchainGoMod)
			src := strings.Replace(w.readFile("greet.go"), "package main\n", "package main\n\nvar broken int = \"x\"\n", 1)
			w.writeFile("greet.go", src)
			write := w.claudeEvent("s1", "Write", map[string]any{"file_path": w.path("greet.go"), "content": src})

			block := w.hook(write)
			if !strings.Contains(block, "lsp-hook: no fresh diagnostics from gopls (cannot load the workspace:") ||
				!strings.Contains(block, "go.mod requires go >= 1.99.0") {
				t.Errorf("untrusted Write of a broken file: lint block lacks gopls's load error:\n%s", indent(block))
			}
			if got := proxy.requests(); len(got) > 0 {
				t.Errorf("untrusted: the go command asked GOPROXY for %v, want nothing", got)
			}
			env := w.goplsEnv()
			if v, ok := env["GOTOOLCHAIN"]; v != "local" || !ok {
				t.Errorf("untrusted: gopls runs with GOTOOLCHAIN=%q (set %v), want local", v, ok)
			}
			if v, ok := env["GOFLAGS"]; ok {
				t.Errorf("untrusted: gopls runs with GOFLAGS=%q, want none", v)
			}
			log, _ := w.logSince(0)
			for _, l := range strings.Split(log, "\n") {
				if strings.Contains(l, `msg="server checked"`) && strings.Contains(l, "server=gopls") &&
					!strings.Contains(l, "freshness=partial") {
					t.Errorf("untrusted: the daemon logged gopls's check as other than partial:\n%s", l)
				}
			}

			// diagnose runs go vet (a linter) as well as gopls, here in this
			// process's engine.
			r := w.run("", nil, "diagnose", "--no-daemon", "greet.go")
			if r.exit != 2 || !strings.Contains(r.stdout+r.stderr, "go-vet") ||
				!strings.Contains(r.stdout+r.stderr, "GOTOOLCHAIN=local") {
				t.Errorf("untrusted diagnose: exit %d, want 2 with go vet's error under GOTOOLCHAIN=local:\n%s%s", r.exit, r.stdout, r.stderr)
			}
			if got := proxy.requests(); len(got) > 0 {
				t.Errorf("untrusted diagnose: the go command asked GOPROXY for %v, want nothing", got)
			}

			if r := w.run("", nil, "trust"); r.exit != 0 {
				t.Fatalf("trust: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
			}
			// trust stops the daemon and returns once it is gone: the next
			// change starts one that trusts the workspace.
			if left := w.daemons(); len(left) > 0 {
				t.Fatalf("the daemon outlived trust: %v", left)
			}
			block = w.hook(write)
			env = w.goplsEnv()
			if v, ok := env["GOTOOLCHAIN"]; v != toolchain || !ok {
				t.Errorf("trusted: gopls runs with GOTOOLCHAIN=%q (set %v), want the user's %q", v, ok, toolchain)
			}
			if v := env["GOFLAGS"]; v != "-buildvcs=false" {
				t.Errorf("trusted: gopls runs with GOFLAGS=%q, want the user's -buildvcs=false", v)
			}
			fetched := func() bool {
				return slices.ContainsFunc(proxy.requests(), func(p string) bool { return strings.HasPrefix(p, "/golang.org/toolchain/") })
			}
			if toolchain == "auto" && !pollUntil(10*time.Second, fetched) {
				t.Errorf("trusted, GOTOOLCHAIN=auto: GOPROXY was asked for %v, want the toolchain go.mod names", proxy.requests())
			}
			// gopls cannot load the folder either way (no go1.99.0 here, none
			// to download): never silence.
			if !strings.Contains(block, "lsp-hook: no fresh diagnostics from gopls (cannot load the workspace:") ||
				!strings.Contains(block, "1.99.0") {
				t.Errorf("trusted Write of a broken file: lint block lacks gopls's load error:\n%s", indent(block))
			}

			// go.mod fixed: gopls loads the workspace again (a new gopls, for
			// one that failed to add the folder) and finds what go vet finds.
			w.writeFile("go.mod", "module example.com/demo\n\ngo 1.22\n")
			vet := w.run("", nil, "diagnose", "--no-daemon", "greet.go")
			const vetSays = "imports must appear before other declarations" // the broken var precedes greet.go's imports
			if !strings.Contains(vet.stdout+vet.stderr, vetSays) {
				t.Fatalf("diagnose after fixing go.mod: want go vet's error, got exit %d:\n%s%s", vet.exit, vet.stdout, vet.stderr)
			}
			block = w.hook(write)
			if !strings.Contains(block, vetSays) || strings.Contains(block, "cannot load the workspace") {
				t.Errorf("trusted Write after fixing go.mod: want gopls's error and no load note:\n%s", indent(block))
			}
		})
	}
}

// recordingProxy is a GOPROXY that has nothing and records what it was
// asked for.
type recordingProxy struct {
	*httptest.Server
	mu    sync.Mutex // guards paths
	paths []string
}

func newRecordingProxy(t *testing.T) *recordingProxy {
	p := &recordingProxy{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.paths = append(p.paths, r.URL.Path)
		p.mu.Unlock()
		http.NotFound(w, r)
	}))
	t.Cleanup(p.Close)
	return p
}

// requests returns the paths asked for so far.
func (p *recordingProxy) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.paths)
}

// goplsEnv returns the environment of the gopls the daemon's status names,
// as gopsutil's Environ reads it (/proc/PID/environ on Linux; the last
// entry of a name wins, as for exec.Cmd).
func (w *workspace) goplsEnv() map[string]string {
	w.t.Helper()
	st, ok := w.status()
	if !ok {
		w.t.Fatal("no daemon answers status")
	}
	p, err := process.NewProcess(int32(w.gopls(st).Pid))
	if err != nil {
		w.t.Fatalf("reading gopls's environment: %v", err)
	}
	environ, err := p.Environ()
	if err != nil {
		w.t.Fatalf("reading gopls's environment: %v", err)
	}
	env := make(map[string]string)
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return env
}
