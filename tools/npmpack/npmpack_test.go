package main

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// requireNode skips the test when node is missing, or fails it when
// LSP_HOOK_REQUIRE_SERVERS=1 (as `make test` sets).
func requireNode(t *testing.T, exe string) {
	t.Helper()
	if _, err := exec.LookPath(exe); err == nil {
		return
	}
	if os.Getenv("LSP_HOOK_REQUIRE_SERVERS") == "1" {
		t.Fatalf("%s is required (LSP_HOOK_REQUIRE_SERVERS=1) but not on PATH", exe)
	}
	t.Skipf("%s not installed", exe)
}

// hostPackage is the platform package for this machine, or skips the test.
func hostPackage(t *testing.T) string {
	t.Helper()
	b := binary{OS: npmOS[runtime.GOOS], CPU: npmCPU[runtime.GOARCH]}
	if b.OS == "" || b.CPU == "" || runtime.GOOS == "windows" {
		t.Skipf("no npm package for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return b.pkgName()
}

// TestPackages makes the packages of a fake goreleaser dist, whose binary
// for this platform is a shell script, extracts the tarballs into a
// node_modules as npm lays them out, and runs the launcher: it must run
// this platform's binary with the arguments and exit with its code, and
// name the missing package when it is not installed.
func TestPackages(t *testing.T) {
	host := hostPackage(t)
	requireNode(t, "node")
	dir := t.TempDir()
	dist := filepath.Join(dir, "dist")
	script := "#!/bin/sh\necho \"fake lsp-hook $*\"\ncase \"$PATH\" in *_npx*) echo \"npx's cache on PATH\" ;; esac\nexit 3\n"
	other := "linux"
	if runtime.GOOS == "linux" {
		other = "darwin"
	}
	writeFile(t, filepath.Join(dist, "fake", "lsp-hook"), script, 0o755)
	writeFile(t, filepath.Join(dist, "metadata.json"), `{"project_name":"lsp-hook","version":"1.2.3-rc.1"}`, 0o644)
	writeFile(t, filepath.Join(dist, "artifacts.json"), `[
		{"name":"lsp-hook","path":"dist/fake/lsp-hook","goos":"`+runtime.GOOS+`","goarch":"`+runtime.GOARCH+`","type":"Binary"},
		{"name":"lsp-hook","path":"dist/fake/lsp-hook","goos":"`+other+`","goarch":"arm64","type":"Binary"},
		{"name":"checksums.txt","path":"dist/checksums.txt","type":"Checksum"}]`, 0o644)
	out := filepath.Join(dist, "npm")
	var stdout strings.Builder
	if err := run([]string{"-dist", dist, "-root", dir, "-out", out}, &stdout); err != nil {
		t.Fatal(err)
	}
	tarballs := strings.Fields(stdout.String())
	if len(tarballs) != 3 || filepath.Base(tarballs[2]) != "lsp-hook-1.2.3-rc.1.tgz" {
		t.Fatalf("tarballs %v: want two platform packages, then lsp-hook-1.2.3-rc.1.tgz", tarballs)
	}

	modules := filepath.Join(dir, "prefix", "node_modules")
	hostTGZ := filepath.Join(out, packedName(host)+"-1.2.3-rc.1.tgz")
	extract(t, hostTGZ, filepath.Join(modules, filepath.FromSlash(host)))
	extract(t, tarballs[2], filepath.Join(modules, "lsp-hook"))

	var pj packageJSON
	data, err := os.ReadFile(filepath.Join(modules, filepath.FromSlash(host), "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &pj); err != nil {
		t.Fatal(err)
	}
	if pj.Name != host || pj.Version != "1.2.3-rc.1" || !slices.Equal(pj.OS, []string{npmOS[runtime.GOOS]}) || !slices.Equal(pj.CPU, []string{npmCPU[runtime.GOARCH]}) {
		t.Errorf("%s package.json: %+v", host, pj)
	}

	launcher := filepath.Join(modules, "lsp-hook", "bin", "lsp-hook.js")
	got, code := runNode(t, nil, launcher, "version", "two words")
	if code != 3 || got != "fake lsp-hook version two words\n" {
		t.Errorf("launcher: exit %d, output %q; want the binary's exit 3 and its output", code, got)
	}
	npxPath := "PATH=" + filepath.Join(dir, "_npx", "0123", "node_modules", ".bin") + string(filepath.ListSeparator) + os.Getenv("PATH")
	if got, _ := runNode(t, []string{npxPath}, launcher); !strings.Contains(got, "npx's cache on PATH") {
		t.Errorf("launcher run by hand took npx's cache off PATH: %q", got)
	}
	if got, _ := runNode(t, []string{npxPath, "npm_command=exec"}, launcher); strings.Contains(got, "npx's cache on PATH") {
		t.Errorf("launcher run by npx left npx's cache on PATH: %q", got)
	}
	if err := os.RemoveAll(filepath.Join(modules, "@lsp-hook")); err != nil {
		t.Fatal(err)
	}
	if got, code := runNode(t, nil, launcher, "version"); code != 2 || !strings.Contains(got, host+", which carries lsp-hook") {
		t.Errorf("launcher without %s: exit %d, output %q; want 2 and the package named", host, code, got)
	}
}

// TestReleaseNPM installs the npm packages `make release-snapshot` built
// (LSP_HOOK_RELEASE_DIST names its dist directory; skipped without it) with
// the real npm, offline, from the tarballs of lsp-hook and of this
// platform, into a temp prefix, and runs `lsp-hook version` through the
// launcher npm links: it must print the version goreleaser stamped.
func TestReleaseNPM(t *testing.T) {
	dist := os.Getenv("LSP_HOOK_RELEASE_DIST")
	if dist == "" {
		t.Skip("LSP_HOOK_RELEASE_DIST is not set: run make release-snapshot")
	}
	host := hostPackage(t)
	requireNode(t, "npm")
	var meta struct {
		Version string `json:"version"`
	}
	if err := readJSON(filepath.Join(dist, "metadata.json"), &meta); err != nil {
		t.Fatal(err)
	}
	npmDir := filepath.Join(dist, "npm")
	prefix := t.TempDir()
	cmd := exec.Command("npm", "install", "--offline", "--no-audit", "--no-fund", "--prefix", prefix,
		"--cache", filepath.Join(prefix, ".npm-cache"),
		filepath.Join(npmDir, packedName(host)+"-"+meta.Version+".tgz"),
		filepath.Join(npmDir, "lsp-hook-"+meta.Version+".tgz"))
	cmd.Dir = prefix
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	bin := filepath.Join(prefix, "node_modules", ".bin", "lsp-hook")
	out, err := exec.Command(bin, "version").CombinedOutput()
	if want := "lsp-hook v" + meta.Version + "\n"; err != nil || string(out) != want {
		t.Errorf("%s version: %v, %q; want %q", bin, err, out, want)
	}
	var ee *exec.ExitError
	if _, err := exec.Command(bin, "diagnose", "--shard", "0/1").CombinedOutput(); !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Errorf("lsp-hook diagnose --shard 0/1 through the launcher: %v; want exit 2, passed on", err)
	}
	npxInstallClaude(t, npmDir, host, meta.Version)
}

// npxInstallClaude runs `npx lsp-hook install claude` from the tarballs,
// offline, with a cache and a home of its own and no lsp-hook on PATH, as
// on a machine without Go, in a fresh git repository: the hook command it
// writes must run lsp-hook from npx's cache by its absolute path.
func npxInstallClaude(t *testing.T, npmDir, host, version string) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	var path []string // node's, npm's and git's directories only
	for _, exe := range []string{"node", "npm", "npx", "git"} {
		if p, err := exec.LookPath(exe); err == nil && !slices.Contains(path, filepath.Dir(p)) {
			path = append(path, filepath.Dir(p))
		}
	}
	cmd := exec.Command("npx", "--offline", "--yes", "--cache", filepath.Join(dir, "npm-cache"),
		"--package", filepath.Join(npmDir, packedName(host)+"-"+version+".tgz"),
		"--package", filepath.Join(npmDir, "lsp-hook-"+version+".tgz"),
		"--", "lsp-hook", "install", "claude")
	cmd.Dir = repo
	cmd.Env = []string{"HOME=" + filepath.Join(dir, "home"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "home", ".config"),
		"PATH=" + strings.Join(path, string(filepath.ListSeparator)), "npm_config_update_notifier=false"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npx lsp-hook install claude: %v\n%s", err, out)
	}
	var settings struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := readJSON(filepath.Join(repo, ".claude", "settings.json"), &settings); err != nil {
		t.Fatal(err)
	}
	var commands []string
	for _, groups := range settings.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				commands = append(commands, h.Command)
			}
		}
	}
	if len(commands) == 0 {
		t.Fatalf("npx lsp-hook install claude wrote no hook command: %+v", settings)
	}
	for _, c := range commands {
		prog, ok := strings.CutSuffix(c, " hook claude")
		if !ok || !filepath.IsAbs(prog) || !strings.Contains(prog, "_npx") {
			t.Errorf("hook command %q: want <npx's cache>/…/bin/lsp-hook hook claude", c)
			continue
		}
		if out, err := exec.Command(prog, "version").CombinedOutput(); err != nil || string(out) != "lsp-hook v"+version+"\n" {
			t.Errorf("%s version: %v, %q", prog, err, out)
		}
	}
}

// runNode runs node script args, with env (KEY=VALUE) added to this
// process's environment, and returns its combined output and exit code.
func runNode(t *testing.T, env []string, script string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("node", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return string(out), ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return string(out), 0
}

// extract unpacks an npm tarball's package/ into dir, keeping modes.
func extract(t *testing.T, tgz, dir string) {
	t.Helper()
	f, err := os.Open(tgz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		rel, ok := strings.CutPrefix(hdr.Name, "package/")
		if !ok || hdr.Typeflag != tar.TypeReg {
			t.Fatalf("%s: entry %s (type %c) is not a file under package/", tgz, hdr.Name, hdr.Typeflag)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, filepath.FromSlash(rel)), string(data), os.FileMode(hdr.Mode))
	}
}

// writeFile writes content to name with mode, making its directories.
func writeFile(t *testing.T, name, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}
