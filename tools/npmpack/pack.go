package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// launcher is the lsp-hook package's bin script; its __PLATFORMS__ is
// replaced by the platform-to-package table of the release.
//
//go:embed lsp-hook.js
var launcher string

// repository is the package.json "repository" of every package.
var repository = map[string]string{"type": "git", "url": "git+https://github.com/lsp-hook/lsp-hook.git"}

// packageJSON is the package.json fields npmpack writes, in npm's order.
type packageJSON struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	Homepage             string            `json:"homepage"`
	Repository           map[string]string `json:"repository"`
	Bin                  map[string]string `json:"bin,omitempty"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"` // Yarn PnP: keep the binary on disk
	Engines              map[string]string `json:"engines,omitempty"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
}

// file is one file of a package: its path inside the package, its mode and
// its content.
type file struct {
	name string
	mode int64
	data []byte
}

// npmPackage is one package to write.
type npmPackage struct {
	name  string // "lsp-hook", "@lsp-hook/linux-x64"
	files []file
}

// packedName is the name npm pack gives name's files: "@lsp-hook/linux-x64"
// becomes "lsp-hook-linux-x64".
func packedName(name string) string {
	return strings.ReplaceAll(strings.TrimPrefix(name, "@"), "/", "-")
}

// writePackages writes the platform packages and the lsp-hook package of
// rel into out, each as a directory and a tarball, and returns the
// tarballs' paths, the platform packages first (the order to publish in).
func writePackages(rel release, out string) ([]string, error) {
	pkgs, err := buildPackages(rel)
	if err != nil {
		return nil, err
	}
	var tarballs []string
	for _, p := range pkgs {
		dir := filepath.Join(out, packedName(p.name))
		for _, f := range p.files {
			name := filepath.Join(dir, filepath.FromSlash(f.name))
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				return nil, fmt.Errorf("writing %s: %w", p.name, err)
			}
			if err := os.WriteFile(name, f.data, os.FileMode(f.mode)); err != nil {
				return nil, fmt.Errorf("writing %s: %w", p.name, err)
			}
		}
		tgz := filepath.Join(out, packedName(p.name)+"-"+rel.Version+".tgz")
		if err := writeTarball(tgz, p.files); err != nil {
			return nil, fmt.Errorf("packing %s: %w", p.name, err)
		}
		tarballs = append(tarballs, tgz)
	}
	return tarballs, nil
}

// buildPackages lays out every package of rel in memory: one per binary,
// then lsp-hook.
func buildPackages(rel release) ([]npmPackage, error) {
	const home = "https://github.com/lsp-hook/lsp-hook"
	platforms := map[string]string{}
	optional := map[string]string{}
	var pkgs []npmPackage
	for _, b := range rel.Binaries {
		exe, err := os.ReadFile(b.Path)
		if err != nil {
			return nil, fmt.Errorf("reading the %s/%s binary: %w", b.OS, b.CPU, err)
		}
		pj := packageJSON{
			Name: b.pkgName(), Version: rel.Version, Homepage: home, Repository: repository,
			Description:     fmt.Sprintf("The lsp-hook binary for %s %s; install the lsp-hook package, which picks it.", b.OS, b.CPU),
			OS:              []string{b.OS},
			CPU:             []string{b.CPU},
			PreferUnplugged: true,
		}
		readme := fmt.Sprintf("# %s\n\nThe `lsp-hook` binary for %s %s. Install [`lsp-hook`](https://www.npmjs.com/package/lsp-hook) instead: it depends on this package on this platform only.\n", b.pkgName(), b.OS, b.CPU)
		pkgs = append(pkgs, npmPackage{name: b.pkgName(), files: []file{
			{"package.json", 0o644, marshal(pj)},
			{"README.md", 0o644, []byte(readme)},
			{"bin/lsp-hook", 0o755, exe},
		}})
		platforms[b.OS+" "+b.CPU] = b.pkgName()
		optional[b.pkgName()] = rel.Version
	}
	table, err := json.MarshalIndent(platforms, "", "  ")
	if err != nil {
		return nil, err
	}
	pj := packageJSON{
		Name: "lsp-hook", Version: rel.Version, Homepage: home, Repository: repository,
		Description:          "Language-server diagnostics for AI coding agents' post-write hooks, and for CI.",
		Bin:                  map[string]string{"lsp-hook": "bin/lsp-hook.js"},
		Engines:              map[string]string{"node": ">=16"},
		OptionalDependencies: optional,
	}
	readme := "# lsp-hook\n\nLanguage-server diagnostics for AI coding agents' post-write hooks, and for CI.\n\n" +
		"    npm install -g lsp-hook\n    lsp-hook install claude\n\n" +
		"The binary comes in a package per platform (`@lsp-hook/linux-x64`, …), installed as an optional dependency. " +
		"See " + home + "#readme.\n"
	pkgs = append(pkgs, npmPackage{name: "lsp-hook", files: []file{
		{"package.json", 0o644, marshal(pj)},
		{"README.md", 0o644, []byte(readme)},
		{"bin/lsp-hook.js", 0o755, []byte(strings.Replace(launcher, "__PLATFORMS__", string(table), 1))},
	}})
	return pkgs, nil
}

// marshal is v as indented JSON with a final newline, ">" and "<" as
// they are; v is always a packageJSON, which cannot fail to encode.
func marshal(v packageJSON) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// tarballTime is the modification time npm pack gives every entry.
var tarballTime = time.Date(1985, 10, 26, 8, 15, 0, 0, time.UTC)

// writeTarball writes files as npm pack does: a gzipped tar whose entries
// live under package/.
func writeTarball(name string, files []file) error {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, f := range files {
		hdr := &tar.Header{Name: "package/" + f.name, Mode: f.mode, Size: int64(len(f.data)), ModTime: tarballTime, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(f.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(name, buf.Bytes(), 0o644)
}
