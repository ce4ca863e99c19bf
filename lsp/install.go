package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/proc"
)

// ServersDir returns the directory `lsp-hook servers install` installs
// into: $XDG_DATA_HOME/lsp-hook/servers, else
// ~/.local/share/lsp-hook/servers. Programs land in its bin, where
// LookPath looks after $PATH; npm packages in its npm.
func ServersDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "lsp-hook", "servers"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the servers directory: %w", err)
	}
	return filepath.Join(home, ".local", "share", "lsp-hook", "servers"), nil
}

// ManualInstallError is Install's answer for a server lsp-hook does not
// install itself (Install.Method apt or system, or a server defined in
// config): Command is what a person runs instead.
type ManualInstallError struct {
	Server  string
	Command string
}

// Error says what to run instead.
func (e *ManualInstallError) Error() string {
	return fmt.Sprintf("lsp-hook does not install %s itself; run: %s", e.Server, e.Command)
}

// StepError is a failed step of Install: Step is what was run ("npm
// install pyright@1.1.414"), Output the end of what it printed when it was
// captured rather than streamed (InstallOptions.Output nil).
type StepError struct {
	Server string
	Step   string
	Output string
	Err    error
}

// Error reads "installing SERVER: STEP: cause".
func (e *StepError) Error() string {
	return fmt.Sprintf("installing %s: %s: %v", e.Server, e.Step, e.Err)
}

// Unwrap returns the step's cause (an *exec.ExitError, a context error, …).
func (e *StepError) Unwrap() error { return e.Err }

// InstallOptions are Install's settings.
type InstallOptions struct {
	// Dir is the servers directory; "" means ServersDir().
	Dir string
	// Progress gets one line per step, with its elapsed time; nil discards.
	Progress io.Writer
	// Output gets the output of the programs Install runs (go, npm) as they
	// print it; nil captures the last 16 KiB of each for StepError.Output.
	Output io.Writer
}

// installOutputTail is how much of a step's captured output a StepError
// keeps.
const installOutputTail = 16 << 10

// InstallHint returns the command line that installs s: `lsp-hook servers
// install NAME` for the go and npm methods, the apt-get command (with sudo
// unless running as root) or the server's own Hint otherwise.
func InstallHint(s config.Server) string {
	switch s.Install.Method {
	case config.InstallGo, config.InstallNPM:
		return "lsp-hook servers install " + s.Name
	case config.InstallApt:
		sudo := "sudo "
		if os.Geteuid() == 0 {
			sudo = ""
		}
		return sudo + "apt-get install " + strings.Join(s.Install.Packages, " ")
	case config.InstallSystem:
		return s.Install.Hint
	}
	if len(s.Command) > 0 {
		return "install " + s.Command[0] + " (configured, not in lsp-hook's catalogue)"
	}
	return "configure a command for " + s.Name
}

// Install installs server s at its pinned version into the servers
// directory and returns the installed program's path: `go install` with
// GOBIN set to <dir>/bin; or `npm install` into <dir>/npm/<package> (one
// prefix per package, so two packages' bins of the same name never
// collide) and a link to the server's program in <dir>/bin. A server of
// another method gets a *ManualInstallError; a failed step a *StepError
// naming the server and the step. ctx cancels a running step, killing its
// whole process group.
func Install(ctx context.Context, s config.Server, opts InstallOptions) (string, error) {
	dir := opts.Dir
	if dir == "" {
		d, err := ServersDir()
		if err != nil {
			return "", err
		}
		dir = d
	}
	dir, err := filepath.Abs(dir) // GOBIN and the links must be absolute
	if err != nil {
		return "", fmt.Errorf("installing %s: %w", s.Name, err)
	}
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	in := s.Install
	switch in.Method {
	case config.InstallGo, config.InstallNPM:
	default:
		return "", &ManualInstallError{Server: s.Name, Command: InstallHint(s)}
	}
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return "", &StepError{Server: s.Name, Step: "creating " + bin, Err: err}
	}
	if in.Method == config.InstallGo {
		err = installGo(ctx, s, bin, opts)
	} else {
		err = installNPM(ctx, s, dir, opts)
	}
	if err != nil {
		return "", err
	}
	exe := filepath.Join(bin, in.Binary)
	if fi, err := os.Stat(exe); err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		return "", &StepError{Server: s.Name, Step: "checking " + exe, Err: errors.New("no executable program there after the install")}
	}
	return exe, nil
}

// installGo runs `go install` of the server's module into bin.
func installGo(ctx context.Context, s config.Server, bin string, opts InstallOptions) error {
	if len(s.Install.Packages) != 1 {
		return &StepError{Server: s.Name, Step: "go install", Err: fmt.Errorf("want one module@version, have %q", s.Install.Packages)}
	}
	return runStep(ctx, s.Name, []string{"go", "install", s.Install.Packages[0]}, []string{"GOBIN=" + bin}, opts)
}

// installNPM runs `npm install` of the server's packages into a prefix of
// its own and links the server's program into <dir>/bin.
func installNPM(ctx context.Context, s config.Server, dir string, opts InstallOptions) error {
	pkgs := s.Install.Packages
	if len(pkgs) == 0 {
		return &StepError{Server: s.Name, Step: "npm install", Err: errors.New("no packages configured")}
	}
	prefix := filepath.Join(dir, "npm", npmPrefixName(pkgs[0]))
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return &StepError{Server: s.Name, Step: "creating " + prefix, Err: err}
	}
	args := append([]string{"install", "--prefix", prefix, "--no-audit", "--no-fund", "--save-exact"}, pkgs...)
	if err := runStep(ctx, s.Name, append([]string{"npm"}, args...), nil, opts); err != nil {
		return err
	}
	begin := time.Now()
	target := filepath.Join(prefix, "node_modules", ".bin", s.Install.Binary)
	link := filepath.Join(dir, "bin", s.Install.Binary)
	step := fmt.Sprintf("link %s -> %s", link, target)
	if err := replaceSymlink(target, link); err != nil {
		return &StepError{Server: s.Name, Step: step, Err: err}
	}
	fmt.Fprintf(opts.Progress, "%s: %s (%s)\n", s.Name, step, elapsed(begin))
	return nil
}

// npmPrefixName is the directory under <dir>/npm for an npm spec: the
// package name without its version, a scope's @ and / made plain
// ("@vue/language-server@2.2.8" → "vue+language-server").
func npmPrefixName(spec string) string {
	name := spec
	if i := strings.LastIndex(spec, "@"); i > 0 {
		name = spec[:i]
	}
	return strings.ReplaceAll(strings.TrimPrefix(name, "@"), "/", "+")
}

// replaceSymlink points link at target, replacing whatever link was,
// atomically (a new link renamed over the old).
func replaceSymlink(target, link string) error {
	if _, err := os.Stat(target); err != nil {
		return fmt.Errorf("the package installed no such program: %w", err)
	}
	tmp := fmt.Sprintf("%s.tmp%d", link, os.Getpid())
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, link); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// runStep runs argv, with env added to lsp-hook's environment, as one
// step of installing server: a proc.Child (its own process group, killed
// whole when ctx ends, and with lsp-hook); its output streamed to
// opts.Output or captured; one progress line when it ends.
func runStep(ctx context.Context, server string, argv, env []string, opts InstallOptions) error {
	step := strings.Join(argv, " ")
	if _, err := exec.LookPath(argv[0]); err != nil {
		return &StepError{Server: server, Step: step, Err: fmt.Errorf("%s not found on PATH", argv[0])}
	}
	captured := &tail{max: installOutputTail}
	out := opts.Output
	if out == nil {
		out = captured
	}
	child := proc.Command(ctx, argv[0], argv[1:]...)
	cmd := child.Cmd
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 5 * time.Second // a grandchild holding the output pipe open
	begin := time.Now()
	if err := child.Run(); err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("%w (%w)", ctx.Err(), err)
		}
		fmt.Fprintf(opts.Progress, "%s: %s failed after %s\n", server, step, elapsed(begin))
		return &StepError{Server: server, Step: step, Output: captured.String(), Err: err}
	}
	fmt.Fprintf(opts.Progress, "%s: %s (%s)\n", server, step, elapsed(begin))
	return nil
}

// elapsed is the time since begin, to a tenth of a second.
func elapsed(begin time.Time) time.Duration {
	return time.Since(begin).Round(100 * time.Millisecond)
}
