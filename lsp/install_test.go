package lsp

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/proc"
)

// isolateTools gives the test a servers directory of its own (through
// XDG_DATA_HOME) and a PATH of only a fresh bin directory plus dirs, with
// $HOME, $GOBIN and $GOPATH pointing at empty places, so LookPath sees
// nothing the machine has installed. It returns the servers directory and
// the fresh bin directory, for fake programs.
func isolateTools(t *testing.T, dirs ...string) (servers, fakeBin string) {
	t.Helper()
	tmp := tempDir(t)
	fakeBin = filepath.Join(tmp, "fakebin")
	if err := os.MkdirAll(fakeBin, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_DATA_HOME", filepath.Join(tmp, "data"))
	t.Setenv("PATH", strings.Join(append([]string{fakeBin}, dirs...), string(os.PathListSeparator)))
	t.Setenv("HOME", filepath.Join(tmp, "home"))
	t.Setenv("GOBIN", "")
	t.Setenv("GOPATH", filepath.Join(tmp, "gopath"))
	servers, err := ServersDir()
	if err != nil {
		t.Fatal(err)
	}
	return servers, fakeBin
}

// fakeProgram writes an executable shell script named name into dir.
func fakeProgram(t *testing.T, dir, name, script string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// fakeNPM is an npm that "installs" by creating node_modules/.bin/<bin>
// under --prefix, after printing its arguments.
const fakeNPM = `echo "fake npm $*"
while [ $# -gt 0 ]; do
	case "$1" in --prefix) prefix="$2"; shift;; esac
	shift
done
mkdir -p "$prefix/node_modules/.bin"
printf '#!/bin/sh\necho fake server\n' > "$prefix/node_modules/.bin/fake-ls"
chmod +x "$prefix/node_modules/.bin/fake-ls"
`

func fakeServer(method string, pkgs ...string) config.Server {
	return config.Server{Name: "fake-ls", Command: []string{"fake-ls", "--stdio"}, Extensions: []string{".fake"},
		Install: config.Install{Method: method, Packages: pkgs, Binary: "fake-ls"}}
}

// TestInstallNPM: an npm server is installed into its own prefix under
// the servers directory and linked into its bin, where LookPath finds it;
// each step prints one line naming the server, the step and its time.
func TestInstallNPM(t *testing.T) {
	servers, fakeBin := isolateTools(t, "/usr/bin", "/bin")
	fakeProgram(t, fakeBin, "npm", fakeNPM)
	var progress, output bytes.Buffer
	exe, err := Install(context.Background(), fakeServer(config.InstallNPM, "@scope/fake-ls@1.2.3", "typescript@5.9.3"),
		InstallOptions{Progress: &progress, Output: &output})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(servers, "bin", "fake-ls"); exe != want {
		t.Errorf("installed %s, want %s", exe, want)
	}
	if got, err := LookPath("fake-ls"); err != nil || got != exe {
		t.Errorf("LookPath = %q, %v; want %s", got, err, exe)
	}
	prefix := filepath.Join(servers, "npm", "scope+fake-ls")
	if want := "fake npm install --prefix " + prefix + " --no-audit --no-fund --save-exact @scope/fake-ls@1.2.3 typescript@5.9.3"; !strings.Contains(output.String(), want) {
		t.Errorf("npm ran as %q, want %q", output.String(), want)
	}
	lines := strings.Split(strings.TrimSpace(progress.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "fake-ls: npm install --prefix ") || !strings.HasSuffix(lines[0], "s)") ||
		!strings.HasPrefix(lines[1], "fake-ls: link "+exe+" -> ") {
		t.Errorf("progress:\n%s", progress.String())
	}
	// Installing again replaces the link.
	if _, err := Install(context.Background(), fakeServer(config.InstallNPM, "@scope/fake-ls@1.2.3"), InstallOptions{}); err != nil {
		t.Fatalf("second install: %v", err)
	}
}

// TestInstallGo: a go server is installed with GOBIN set to the servers
// directory's bin.
func TestInstallGo(t *testing.T) {
	servers, fakeBin := isolateTools(t, "/usr/bin", "/bin")
	fakeProgram(t, fakeBin, "go", `[ "$1 $2" = "install example.com/fake-ls@v1.0.0" ] || { echo "bad args: $*"; exit 2; }
printf '#!/bin/sh\n' > "$GOBIN/fake-ls"; chmod +x "$GOBIN/fake-ls"
`)
	exe, err := Install(context.Background(), fakeServer(config.InstallGo, "example.com/fake-ls@v1.0.0"), InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(servers, "bin", "fake-ls"); exe != want {
		t.Errorf("installed %s, want %s", exe, want)
	}
}

// TestInstallFailure: a failing step's error names the server and the
// step, and carries the output it captured.
func TestInstallFailure(t *testing.T) {
	_, fakeBin := isolateTools(t, "/usr/bin", "/bin")
	fakeProgram(t, fakeBin, "npm", "echo 'npm ERR! 404 Not Found - fake-ls@9.9.9' >&2\nexit 1\n")
	var progress bytes.Buffer
	_, err := Install(context.Background(), fakeServer(config.InstallNPM, "fake-ls@9.9.9"), InstallOptions{Progress: &progress})
	var step *StepError
	if !errors.As(err, &step) {
		t.Fatalf("err = %v, want a *StepError", err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "installing fake-ls: npm install --prefix ") || !strings.HasSuffix(msg, "fake-ls@9.9.9: exit status 1") {
		t.Errorf("error %q does not name the server and the step", msg)
	}
	if !strings.Contains(step.Output, "404 Not Found") {
		t.Errorf("captured output %q", step.Output)
	}
	if !strings.Contains(progress.String(), "failed after") {
		t.Errorf("progress %q does not say the step failed", progress.String())
	}

	// A missing go is reported as such, before anything runs.
	t.Setenv("PATH", fakeBin) // no go there, whatever /usr/bin holds
	_, err = Install(context.Background(), fakeServer(config.InstallGo, "example.com/fake-ls@v1.0.0"), InstallOptions{})
	if err == nil || !strings.Contains(err.Error(), "installing fake-ls: go install example.com/fake-ls@v1.0.0: go not found on PATH") {
		t.Errorf("without go: %v", err)
	}
	// A step that succeeds without providing the program is an error too.
	fakeProgram(t, fakeBin, "go", "exit 0\n")
	if _, err = Install(context.Background(), fakeServer(config.InstallGo, "example.com/fake-ls@v1.0.0"), InstallOptions{}); err == nil ||
		!strings.Contains(err.Error(), "no executable program there") {
		t.Errorf("go install that installed nothing: %v", err)
	}
}

// TestInstallCancel: ending ctx kills the step's whole process group, not
// just the program Install started.
func TestInstallCancel(t *testing.T) {
	_, fakeBin := isolateTools(t, "/usr/bin", "/bin")
	pidFile := filepath.Join(fakeBin, "child.pid")
	fakeProgram(t, fakeBin, "go", "sleep 60 &\necho $! > "+pidFile+"\nwait\n")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	begin := time.Now()
	_, err := Install(ctx, fakeServer(config.InstallGo, "example.com/fake-ls@v1.0.0"), InstallOptions{})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(begin) > 5*time.Second {
		t.Fatalf("Install = %v after %v, want the deadline at once", err, time.Since(begin))
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if !eventually(2*time.Second, func() bool { return !alive(pid) }) {
		t.Errorf("the step's child %d outlived the cancelled install", pid)
	}
}

// alive reports whether process pid exists and is not a zombie (one
// killed but not yet reaped by whoever inherited it).
func alive(pid int) bool { return proc.Alive(pid) }

// TestInstallManual: apt and system servers, and servers defined in
// config, are not installed; the error says what to run instead.
func TestInstallManual(t *testing.T) {
	isolateTools(t)
	cat := config.Default().LSP.Servers
	sudo := "sudo "
	if os.Geteuid() == 0 {
		sudo = ""
	}
	for _, tt := range []struct {
		server config.Server
		want   string
	}{
		{cat["clangd"], sudo + "apt-get install clangd"},
		{cat["rust-analyzer"], "rustup component add rust-analyzer"},
		{config.Server{Name: "mine", Command: []string{"my-ls"}}, "install my-ls (configured, not in lsp-hook's catalogue)"},
	} {
		_, err := Install(context.Background(), tt.server, InstallOptions{})
		var manual *ManualInstallError
		if !errors.As(err, &manual) || manual.Command != tt.want || manual.Server != tt.server.Name {
			t.Errorf("Install(%s) = %v, want to be told to run %q", tt.server.Name, err, tt.want)
		}
	}
	if got := InstallHint(cat["gopls"]); got != "lsp-hook servers install gopls" {
		t.Errorf("InstallHint(gopls) = %q", got)
	}
}

// TestInstallNetwork really installs the cheapest go-distributed and
// npm-distributed catalogue servers, at their pins, into an empty servers
// directory, and checks that LookPath finds each there and that each
// runs: gopls prints its version, docker-langserver completes the LSP
// handshake. It needs the module proxy and the npm registry, so it runs
// only with LSP_HOOK_NETWORK_TESTS=1 or LSP_HOOK_REQUIRE_SERVERS=1 (`make
// test`). gopls is quick to install when the build cache has it (`make
// tools` builds the same version); docker-langserver is the smallest npm
// server.
func TestInstallNetwork(t *testing.T) {
	if os.Getenv("LSP_HOOK_NETWORK_TESTS") != "1" && os.Getenv("LSP_HOOK_REQUIRE_SERVERS") != "1" {
		t.Skip("installs from the network: set LSP_HOOK_NETWORK_TESTS=1")
	}
	for _, prog := range []string{"go", "npm", "node"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Fatalf("%s is needed to install servers: %v", prog, err)
		}
	}
	// A servers directory of its own; go and npm keep their caches, so a
	// warm machine installs from them.
	t.Setenv("XDG_DATA_HOME", tempDir(t))
	t.Setenv("GOBIN", "")
	servers, err := ServersDir()
	if err != nil {
		t.Fatal(err)
	}
	cat := config.Default().LSP.Servers
	installed := make(map[string]string)
	for _, name := range []string{"gopls", "docker-langserver"} {
		begin := time.Now()
		exe, err := Install(context.Background(), cat[name], InstallOptions{Progress: testWriter{t}})
		if err != nil {
			var step *StepError
			if errors.As(err, &step) {
				t.Logf("output:\n%s", step.Output)
			}
			t.Fatal(err)
		}
		t.Logf("%s installed in %v", name, time.Since(begin).Round(time.Millisecond))
		if want := filepath.Join(servers, "bin", cat[name].Command[0]); exe != want {
			t.Fatalf("installed %s, want %s", exe, want)
		}
		installed[name] = exe
	}
	// LookPath finds them there once $PATH has nothing (the machine's own
	// servers, such as make tools' gopls, come first on $PATH).
	path := os.Getenv("PATH")
	t.Setenv("PATH", "")
	for name, exe := range installed {
		if got, err := LookPath(cat[name].Command[0]); err != nil || got != exe {
			t.Errorf("LookPath(%s) = %q, %v; want %s", cat[name].Command[0], got, err, exe)
		}
	}
	t.Setenv("PATH", path) // docker-langserver runs `env node`

	out, err := exec.Command(installed["gopls"], "version").CombinedOutput()
	if want := "golang.org/x/tools/gopls v0.23.0"; err != nil || !strings.Contains(string(out), want) {
		t.Errorf("gopls version = %q, %v; want %s", out, err, want)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	docker := cat["docker-langserver"]
	docker.Command = append([]string{installed["docker-langserver"]}, docker.Command[1:]...)
	c := startClient(ctx, t, docker, tempDir(t))
	if c.Err() != nil {
		t.Errorf("docker-langserver after the handshake: %v", c.Err())
	}
}
