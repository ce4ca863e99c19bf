package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The peer (issue 18): cli-lsp-client, pinned in tools/bench and installed
// by make bench-tools, run on the same edits as lsp-hook. It is a single
// binary (Bun) with a daemon per working directory, which spawns the
// language servers it finds on PATH and answers its Claude Code hook,
// `cli-lsp-client claude-code-hook`: the PostToolUse event on stdin, then
// exit 0 and no output when the file is clean, or exit 2 with the
// diagnostics on stderr (exit 1: its daemon failed). Its state goes to
// $TMPDIR (socket, pid, log: cli-lsp-client-<hash of the directory>.*) and
// $HOME (~/.lsp-cli-client: the servers it installs with `bun x`), so the
// bench gives it its own of both under the temporary tree, and a config
// file (~/.config/cli-lsp-client/settings.json) that points its TypeScript and Python servers
// at the ones on PATH, the very programs lsp-hook runs, instead of the
// copies it would download: both sides run the same servers. It has no C.

// peerName is the peer as the report names it.
const peerName = "cli-lsp-client"

// peerConfig is the peer's config file: its built-in typescript and pyright
// entries (extensions and root patterns as it ships them) with the
// commands on PATH.
var peerConfig = map[string]any{"servers": []any{
	map[string]any{
		"id": "typescript", "extensions": []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"},
		"rootPatterns": []string{"tsconfig.json", "package.json", "jsconfig.json"},
		"command":      []string{"typescript-language-server", "--stdio"},
	},
	map[string]any{
		"id": "pyright", "extensions": []string{".py", ".pyi"},
		"rootPatterns": []string{"pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "Pipfile", "pyrightconfig.json"},
		"command":      []string{"pyright-langserver", "--stdio"},
	},
}}

// peer runs cli-lsp-client for the bench.
type peer struct {
	bin     string   // absolute path of the binary
	version string   // `cli-lsp-client --version`
	env     []string // the bench's environment with the peer's own HOME, TMPDIR and config
	tmp     string   // its TMPDIR: where its sockets, pid files and logs go
}

// newPeer prepares the peer's HOME, TMPDIR and config under the bench's
// temporary tree. bin "" or missing is an error saying how to install it.
func (b *bench) newPeer(ctx context.Context, bin string) (*peer, error) {
	if bin == "" {
		return nil, errors.New("no -peer given (make bench-tools installs cli-lsp-client; make bench passes it)")
	}
	if fi, err := os.Stat(bin); err != nil || fi.IsDir() {
		return nil, fmt.Errorf("-peer %s: not installed (make bench-tools; cli-lsp-client ships for linux/x64 here)", bin)
	}
	p := &peer{bin: bin, tmp: filepath.Join(b.tmp, "pt")}
	home := filepath.Join(b.tmp, "peer-home")
	for _, d := range []string{p.tmp, home} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("preparing the peer: %w", err)
		}
	}
	cfg, err := json.Marshal(peerConfig)
	if err != nil {
		return nil, err
	}
	// Its default config path: given in $LSPCLI_CONFIG_FILE instead, the
	// daemon records it and each hook, which names none, restarts the
	// daemon as "config changed".
	cfgPath := filepath.Join(home, ".config", "cli-lsp-client", "settings.json")
	if err := os.MkdirAll(filepath.Dir(cfgPath), 0o700); err != nil {
		return nil, fmt.Errorf("writing the peer's config: %w", err)
	}
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		return nil, fmt.Errorf("writing the peer's config: %w", err)
	}
	p.env = withEnv(b.env, "HOME="+home, "TMPDIR="+p.tmp, "NO_COLOR=1")
	r, err := b.execGroup(ctx, p.tmp, p.env, nil, bin, "--version")
	if err == nil && r.code != 0 {
		err = fmt.Errorf("exit %d: %s", r.code, firstLines(r.combined(), 2))
	}
	if err != nil {
		return nil, fmt.Errorf("running the peer: %w", err)
	}
	p.version = peerName + " " + firstLine(r.stdout, nil)
	return p, nil
}

// peerAnswer is one run of the peer's hook: its wall time, exit code and
// the diagnostics it printed.
type peerAnswer struct {
	wall  time.Duration
	code  int
	diags []peerDiag
	text  string // stderr and stdout as printed
}

// hook runs the peer's Claude Code hook in dir for an event on path (a
// claudeEvent or writeEvent) and parses its answer. Exit 0 and 2 are
// answers; anything else is an error.
func (p *peer) hook(ctx context.Context, b *bench, dir string, event []byte) (peerAnswer, error) {
	r, err := b.execGroup(ctx, dir, p.env, event, p.bin, "claude-code-hook")
	if err != nil {
		return peerAnswer{}, err
	}
	a := peerAnswer{wall: r.wall, code: r.code, text: r.combined()}
	if r.code != 0 && r.code != 2 {
		return a, fmt.Errorf("%s claude-code-hook exited %d: %s", peerName, r.code, firstLines(a.text, 3))
	}
	if a.diags, err = parsePeerOutput(string(r.stderr)); err != nil {
		return a, err
	}
	if r.code == 2 && len(a.diags) == 0 {
		return a, fmt.Errorf("%s claude-code-hook exited 2 with no diagnostic: %q", peerName, firstLines(a.text, 3))
	}
	return a, nil
}

// stop stops the peer's daemon for dir (`cli-lsp-client stop`, which ends
// its servers) and returns what it printed on failure.
func (p *peer) stop(ctx context.Context, b *bench, dir string) error {
	r, err := b.execGroup(ctx, dir, p.env, nil, p.bin, "stop")
	if err == nil && r.code != 0 {
		err = fmt.Errorf("%s stop exited %d: %s", peerName, r.code, firstLines(r.combined(), 3))
	}
	return err
}

// pidRE finds the daemon's pid in `cli-lsp-client status`: "PID: 28273".
var pidRE = regexp.MustCompile(`(?m)^PID:\s*(\d+)`)

// daemonPid is the pid of the peer's daemon for dir, 0 when none runs.
func (p *peer) daemonPid(ctx context.Context, b *bench, dir string) int {
	r, err := b.execGroup(ctx, dir, p.env, nil, p.bin, "status")
	if err != nil || r.code != 0 {
		return 0
	}
	m := pidRE.FindStringSubmatch(string(r.stdout))
	if m == nil {
		return 0
	}
	if pid, _ := strconv.Atoi(m[1]); pid > 1 {
		return pid
	}
	return 0
}

// peerDiag is one diagnostic of the peer's answer: 1-based line and
// column (the peer adds 1 to LSP's 0-based line and UTF-16 character), its
// severity as printed ("ERROR", "WARNING", "INFO", "HINT"), the source in
// brackets ("" when none) and the message, continuation lines joined with
// "\n".
type peerDiag struct {
	source   string
	severity string
	line     int
	column   int
	message  string
}

// peerHeadRE is the first line of a diagnostic as cli-lsp-client 1.24
// prints it: "[compiler] ERROR at line 12, column 24: message [code]".
var peerHeadRE = regexp.MustCompile(`^(?:\[([^\]]*)\] )?(ERROR|WARNING|INFO|HINT|UNKNOWN) at line (\d+), column (\d+):\s?(.*)$`)

// ansiRE matches the colour escapes the peer's diagnostics command prints.
var ansiRE = regexp.MustCompile("\x1b\\[[0-9;]*m")

// parsePeerOutput parses the peer's diagnostics: a header line each
// (peerHeadRE), and indented lines after it continuing its message
// (pyright's indent with no-break spaces, U+00A0). A
// non-blank line that is neither, before the first header, is an error
// quoting it: the format changed, and guessing would judge the peer wrong.
func parsePeerOutput(out string) ([]peerDiag, error) {
	var diags []peerDiag
	for n, line := range strings.Split(ansiRE.ReplaceAllString(out, ""), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if m := peerHeadRE.FindStringSubmatch(line); m != nil {
			l, err1 := strconv.Atoi(m[3])
			c, err2 := strconv.Atoi(m[4])
			if err := errors.Join(err1, err2); err != nil || l < 1 || c < 1 {
				return diags, fmt.Errorf("peer output line %d: bad position in %q", n+1, line)
			}
			diags = append(diags, peerDiag{source: m[1], severity: m[2], line: l, column: c, message: m[5]})
			continue
		}
		if len(diags) == 0 || !(strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\u00a0")) {
			return diags, fmt.Errorf("peer output line %d: not a diagnostic: %q", n+1, line)
		}
		d := &diags[len(diags)-1]
		d.message += "\n" + strings.TrimSpace(strings.ReplaceAll(line, "\u00a0", " "))
	}
	return diags, nil
}

// checkPeer says what is wrong with the peer's answer for an edit whose
// declaration is on line ("" when nothing), as checkLint does for
// lsp-hook's: a broken edit must be reported as an error on that line, a
// fixed one must not be (a stale line).
func checkPeer(a peerAnswer, line int, broken bool) string {
	found := false
	for _, d := range a.diags {
		found = found || (d.line == line && d.severity == "ERROR")
	}
	switch {
	case broken && !found:
		return fmt.Sprintf("type error on line %d not reported (exit %d): %q", line, a.code, firstLines(a.text, 2))
	case !broken && found:
		return fmt.Sprintf("fixed line %d still reported (stale): %q", line, firstLines(a.text, 2))
	}
	return ""
}
