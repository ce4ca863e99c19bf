package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// release is what npmpack needs of a goreleaser run.
type release struct {
	Version  string   // metadata.json's version, no "v": "1.2.3", "0.0.1-snapshot"
	Binaries []binary // one per platform, sorted by package name
}

// binary is one Binary artifact of artifacts.json, with the npm platform
// names of its GOOS and GOARCH.
type binary struct {
	Path string // the file, absolute or relative to the working directory
	OS   string // npm's "os" (process.platform): linux, darwin, win32
	CPU  string // npm's "cpu" (process.arch): x64, arm64
}

// pkgName is the name of the platform package that carries b.
func (b binary) pkgName() string { return "@lsp-hook/" + b.OS + "-" + b.CPU }

// npmOS and npmCPU map GOOS and GOARCH to Node's process.platform and
// process.arch, which npm's "os" and "cpu" fields match.
var (
	npmOS  = map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32", "freebsd": "freebsd"}
	npmCPU = map[string]string{"amd64": "x64", "arm64": "arm64", "386": "ia32", "arm": "arm"}
)

// artifact is one entry of goreleaser's dist/artifacts.json.
type artifact struct {
	Name   string `json:"name"`
	Path   string `json:"path"` // relative to the directory goreleaser ran in
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`
	Type   string `json:"type"` // "Binary", "Archive", "Checksum", …
}

// readRelease reads metadata.json and artifacts.json from dist; artifact
// paths are taken relative to root. A release with no binary, a platform
// npm has no name for, or two binaries for one platform is an error.
func readRelease(dist, root string) (release, error) {
	var meta struct {
		Version string `json:"version"`
	}
	if err := readJSON(filepath.Join(dist, "metadata.json"), &meta); err != nil {
		return release{}, err
	}
	if meta.Version == "" {
		return release{}, fmt.Errorf("reading %s: no version", filepath.Join(dist, "metadata.json"))
	}
	var arts []artifact
	if err := readJSON(filepath.Join(dist, "artifacts.json"), &arts); err != nil {
		return release{}, err
	}
	rel := release{Version: meta.Version}
	seen := map[string]bool{}
	for _, a := range arts {
		if a.Type != "Binary" {
			continue
		}
		b := binary{Path: a.Path, OS: npmOS[a.GOOS], CPU: npmCPU[a.GOARCH]}
		if b.OS == "" || b.CPU == "" {
			return release{}, fmt.Errorf("binary %s: no npm name for %s/%s", a.Path, a.GOOS, a.GOARCH)
		}
		if !filepath.IsAbs(b.Path) {
			b.Path = filepath.Join(root, b.Path)
		}
		if seen[b.pkgName()] {
			return release{}, fmt.Errorf("binary %s: a second binary for %s/%s", a.Path, a.GOOS, a.GOARCH)
		}
		seen[b.pkgName()] = true
		rel.Binaries = append(rel.Binaries, b)
	}
	if len(rel.Binaries) == 0 {
		return release{}, fmt.Errorf("reading %s: no Binary artifact", filepath.Join(dist, "artifacts.json"))
	}
	sort.Slice(rel.Binaries, func(i, j int) bool { return rel.Binaries[i].pkgName() < rel.Binaries[j].pkgName() })
	return rel, nil
}

// readJSON decodes the JSON file name into v.
func readJSON(name string, v any) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("reading goreleaser's output: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decoding %s: %w", name, err)
	}
	return nil
}
