package config

import (
	"slices"
	"strings"
)

// The go command reads two environment variables that let a repository
// decide what runs before the user has trusted it (trust.go):
//
//   - GOTOOLCHAIN (https://go.dev/doc/toolchain, "GOTOOLCHAIN setting"):
//     under "auto", stock Go's default ($GOROOT/go.env), a go.mod or
//     go.work whose `go` or `toolchain` line names a newer Go makes the
//     go command download that toolchain (golang.org/toolchain from
//     GOPROXY) and run it; under "path" it runs whatever goX.Y.Z it finds
//     on PATH. "local" always runs the go command that was found.
//   - GOFLAGS (`go help environment`): flags added to every go command, a
//     -toolexec or -modfile among them; a repository's .envrc (direnv)
//     can put it in the environment that lsp-hook inherits.
//
// gopls runs `go list` and `go env` and go vet is `go`, so every language
// server and linter of an untrusted workspace runs under ProgramEnv's rule.

// Variables ProgramEnv controls in an untrusted workspace.
const (
	envGoToolchain = "GOTOOLCHAIN"
	envGoFlags     = "GOFLAGS"
)

// ProgramEnv returns the environment, KEY=VALUE entries for exec.Cmd.Env,
// of a program lsp-hook runs for a workspace: a language server (package
// lsp) or a linter (package sidecar). base is lsp-hook's own environment
// (os.Environ()); extra is what the config sets for the program (a
// server's `env:`), which replaces base's entry of the same name and is
// added in key order.
//
// In a trusted workspace (trusted: Config.WorkspaceTrusted, set by
// `lsp-hook trust`) that is all: the user's GOTOOLCHAIN and GOFLAGS stay
// as they are. In an untrusted one GOFLAGS is left out and GOTOOLCHAIN is
// "local", whatever base or extra say, so that nothing in the repository
// can make the go command download or run another toolchain, or pass it
// flags. GOFLAGS set with `go env -w` (the user's go env file) still
// applies, as an empty or absent variable lets it. A go.mod that needs a
// newer Go than the local one then fails to load, which gopls reports as
// "Error loading workspace" and the lint block as a note.
//
// base is not modified; an entry without "=" is kept as it is.
func ProgramEnv(base []string, extra map[string]string, trusted bool) []string {
	drop := func(key string) bool {
		if _, ok := extra[key]; ok {
			return true
		}
		return !trusted && (key == envGoToolchain || key == envGoFlags)
	}
	env := make([]string, 0, len(base)+len(extra)+1)
	for _, kv := range base {
		if k, _, ok := strings.Cut(kv, "="); ok && drop(k) {
			continue
		}
		env = append(env, kv)
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if trusted || (k != envGoToolchain && k != envGoFlags) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		env = append(env, k+"="+extra[k])
	}
	if !trusted {
		env = append(env, envGoToolchain+"=local")
	}
	return env
}
