package lsp

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/lsp-hook/lsp-hook/config"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// MaxScannedFiles is how many workspace files ListServers looks at to tell
// which servers the workspace would use.
const MaxScannedFiles = 20000

// Where a server's program was found (ServerInfo.Where).
const (
	FoundOnPath    = "PATH"     // on $PATH
	FoundInServers = "lsp-hook" // in ServersDir()/bin, from `lsp-hook servers install`
	FoundInGoBin   = "go bin"   // in $GOBIN, $GOPATH/bin or ~/go/bin
	FoundNowhere   = "missing"
)

// ServerInfo is one server of `lsp-hook servers list`.
type ServerInfo struct {
	Name string `json:"name"`
	// Languages are the LSP language ids it is sent files as, sorted.
	Languages  []string `json:"languages"`
	Extensions []string `json:"extensions,omitempty"`
	FileNames  []string `json:"file_names,omitempty"`
	Enabled    bool     `json:"enabled"`
	// Where is FoundOnPath, FoundInServers, FoundInGoBin or FoundNowhere;
	// Path is the program found, InstallHint the command that installs it
	// when it is missing.
	Where       string `json:"where"`
	Path        string `json:"path,omitempty"`
	InstallHint string `json:"install_hint,omitempty"`
	// Method and Packages are the catalogue's Install (empty for a server
	// defined in config).
	Method   string   `json:"install_method,omitempty"`
	Packages []string `json:"install_packages,omitempty"`
	// Files counts the scanned workspace files it serves; Used is whether
	// the workspace would use it: LSP on, the server enabled, Files > 0.
	Files int  `json:"files"`
	Used  bool `json:"used"`
}

// ServerList is what `lsp-hook servers list` shows: every configured
// server in name order, and how much of the workspace was scanned.
type ServerList struct {
	Root    string       `json:"root"`
	Scanned int          `json:"scanned_files"`
	Capped  bool         `json:"scan_capped"` // the scan stopped at MaxScannedFiles
	Servers []ServerInfo `json:"servers"`
}

// ListServers describes every server of cfg for the workspace at root:
// where its program is (LookPath), how to install it when missing, and how
// many of the workspace's files it serves (at most MaxScannedFiles files
// of the workspace's listing are looked at, ws.Files: the files
// `lsp-hook diagnose` selects from).
func ListServers(ctx context.Context, cfg *config.Config, root string) (*ServerList, error) {
	files, capped, err := ws.Files(ctx, root, MaxScannedFiles)
	if err != nil {
		return nil, err
	}
	byName := make(map[string]int) // base name → files
	for _, f := range files {
		byName[filepath.Base(f)]++
	}
	list := &ServerList{Root: root, Scanned: len(files), Capped: capped}
	for _, name := range slices.Sorted(maps.Keys(cfg.LSP.Servers)) {
		s := cfg.LSP.Servers[name]
		info := ServerInfo{
			Name: name, Extensions: s.Extensions, FileNames: s.FileNames, Enabled: s.Enabled,
			Method: s.Install.Method, Packages: s.Install.Packages,
		}
		for _, id := range s.LanguageIDs {
			if !slices.Contains(info.Languages, id) {
				info.Languages = append(info.Languages, id)
			}
		}
		slices.Sort(info.Languages)
		for base, n := range byName {
			if s.ServesPath(base) {
				info.Files += n
			}
		}
		info.Used = cfg.LSP.Enabled && s.Enabled && info.Files > 0
		info.Where, info.Path = locate(s)
		if info.Where == FoundNowhere {
			info.InstallHint = InstallHint(s)
		}
		list.Servers = append(list.Servers, info)
	}
	return list, nil
}

// locate says where LookPath finds s's program.
func locate(s config.Server) (where, path string) {
	if len(s.Command) == 0 {
		return FoundNowhere, ""
	}
	p, err := LookPath(s.Command[0])
	if err != nil {
		return FoundNowhere, ""
	}
	if _, err := exec.LookPath(s.Command[0]); err == nil {
		return FoundOnPath, p
	}
	if dir, err := ServersDir(); err == nil && filepath.Dir(p) == filepath.Join(dir, "bin") {
		return FoundInServers, p
	}
	return FoundInGoBin, p
}

// WriteServerTable writes list as an aligned table (text/tabwriter): name,
// languages, enabled, files served, used, and the program found or, when
// missing, the command that installs it.
func WriteServerTable(w io.Writer, list *ServerList) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tLANGUAGES\tENABLED\tFILES\tUSED\tPROGRAM")
	for _, s := range list.Servers {
		program := s.Path + " (" + s.Where + ")"
		if s.Where == FoundNowhere {
			program = "missing: " + s.InstallHint
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", s.Name, strings.Join(s.Languages, ","),
			yesNo(s.Enabled), s.Files, yesNo(s.Used), program)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if list.Capped {
		_, err := fmt.Fprintf(w, "(FILES counts the first %d files of %s only)\n", list.Scanned, list.Root)
		return err
	}
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
