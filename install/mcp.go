package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tailscale/hujson"
)

// This file registers `lsp-hook mcp` in a project's .mcp.json, the
// project-scoped MCP server list Claude Code reads
// (https://code.claude.com/docs/en/mcp, "Project scope"):
//
//	{"mcpServers": {"lsp-hook": {"command": "lsp-hook", "args": ["mcp"]}}}
//
// It is `lsp-hook install claude --mcp`. The file is edited with the same
// syntax-tree helpers as the hook files (install_json.go), with the same
// guarantees as Install and Uninstall: other servers and every other byte
// stay, installing twice changes nothing, uninstalling gives back the
// original bytes, the first change backs the file up, DryRun writes nothing.

// MCPConfigFile is the project-level MCP server list, relative to the
// workspace root.
const MCPConfigFile = ".mcp.json"

// mcpServerName is the key of lsp-hook's entry under "mcpServers".
const mcpServerName = ProgramName

// MCPConfigPath returns the .mcp.json install edits for opts: only the
// project scope has one (Claude Code's user-scoped servers live in
// ~/.claude.json, which install does not edit).
func MCPConfigPath(opts Options) (string, error) {
	if opts.Scope != ProjectScope {
		return "", errors.New("--mcp edits the project's .mcp.json only: add the server to user scope with `claude mcp add --scope user lsp-hook -- lsp-hook mcp`")
	}
	if opts.Root == "" {
		return "", errors.New("no workspace root for the project's .mcp.json")
	}
	return filepath.Join(opts.Root, MCPConfigFile), nil
}

// mcpServerEntry is the entry install writes for program (ProgramName or an
// absolute path, as HookProgram chose it).
func mcpServerEntry(program string) jsonFields {
	return jsonFields{{"command", program}, {"args", []any{"mcp"}}}
}

// isLSPHookMCPEntry reports whether v is an MCP server entry that runs
// lsp-hook: an object whose "command" has a base name starting with
// ProgramName. A user's own "lsp-hook" entry running something else is not
// lsp-hook's to remove.
func isLSPHookMCPEntry(v hujson.Value) bool {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return false
	}
	s, ok := jsonString(obj, "command")
	return ok && strings.HasPrefix(filepath.Base(s), ProgramName)
}

// mcpServers returns the document's "mcpServers" object and the
// indentation of its line, nil when there is none; one that is not an
// object is an error.
func (d *jsonDoc) mcpServers() (*hujson.Object, string, error) {
	root := d.root.Value.(*hujson.Object)
	i := jsonMember(root, "mcpServers")
	if i < 0 {
		return nil, "", nil
	}
	m := root.Members[i]
	obj, ok := m.Value.Value.(*hujson.Object)
	if !ok {
		return nil, "", fmt.Errorf("%s: %w: \"mcpServers\" is %s, want an object", d.path, ErrBadConfig, jsonKind(m.Value))
	}
	ind, _ := extraLineIndent(m.Name.BeforeExtra)
	return obj, ind, nil
}

// installMCP makes mcpServers.lsp-hook the entry for program; an entry
// there already with the same JSON is left alone, a different one is
// replaced at the end of the object.
func (d *jsonDoc) installMCP(program string) error {
	servers, ind, err := d.mcpServers()
	if err != nil {
		return err
	}
	entry := mcpServerEntry(program)
	if servers == nil {
		d.appendMember(d.root.Value.(*hujson.Object), "", "mcpServers", jsonFields{{mcpServerName, entry}})
		return nil
	}
	if i := jsonMember(servers, mcpServerName); i >= 0 {
		if jsonSame(servers.Members[i].Value, entry) {
			return nil
		}
		jsonRemoveMember(servers, i)
	}
	d.appendMember(servers, ind, mcpServerName, entry)
	return nil
}

// uninstallMCP removes lsp-hook's entry from mcpServers, and mcpServers
// when that left it empty. It reports whether it removed anything.
func (d *jsonDoc) uninstallMCP() (bool, error) {
	servers, _, err := d.mcpServers()
	if err != nil || servers == nil {
		return false, err
	}
	i := jsonMember(servers, mcpServerName)
	if i < 0 || !isLSPHookMCPEntry(servers.Members[i].Value) {
		return false, nil
	}
	jsonRemoveMember(servers, i)
	if len(servers.Members) == 0 {
		root := d.root.Value.(*hujson.Object)
		jsonRemoveMember(root, jsonMember(root, "mcpServers"))
	}
	return true, nil
}

// AddMCP registers `program mcp` as the "lsp-hook" server in the
// project's .mcp.json (MCPConfigPath), creating the file when needed.
// opts.Command and opts.Batch are not used. Result.Target is Claude Code's.
func AddMCP(program string, opts Options) (*Result, error) {
	path, err := MCPConfigPath(opts)
	if err != nil {
		return nil, err
	}
	t, _ := Lookup("claude")
	old, exists, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	var d *jsonDoc
	if len(bytes.TrimSpace(old)) == 0 {
		d = newJSONDoc(path, nil)
	} else if d, err = parseJSONDoc(path, old); err != nil {
		return nil, err
	}
	if err := d.installMCP(program); err != nil {
		return nil, err
	}
	res := &Result{Target: t, Path: path, Action: Updated}
	out := d.bytes()
	if exists && bytes.Equal(out, old) {
		res.Action = Unchanged
		return res, nil
	}
	oldName := path
	if !exists {
		res.Action, oldName = Created, "/dev/null"
	}
	res.Diff = unifiedDiff(oldName, path, old, out)
	res.Notes = []string{"Claude Code asks you to approve a project's .mcp.json servers when a session starts; /mcp lists them."}
	if opts.DryRun {
		return res, nil
	}
	if exists {
		if res.Backup, err = backupConfig(path, old); err != nil {
			return nil, err
		}
	}
	return res, writeConfig(path, out)
}

// RemoveMCP removes the "lsp-hook" server from the project's .mcp.json
// when it runs lsp-hook, and mcpServers when that left it empty; like
// Uninstall it restores the backup when the result equals it up to empty
// containers, and deletes a file that install created and that is now
// empty.
func RemoveMCP(opts Options) (*Result, error) {
	path, err := MCPConfigPath(opts)
	if err != nil {
		return nil, err
	}
	t, _ := Lookup("claude")
	res := &Result{Target: t, Path: path, Action: Unchanged}
	old, exists, err := readConfig(path)
	if err != nil || !exists || len(bytes.TrimSpace(old)) == 0 {
		return res, err
	}
	d, err := parseJSONDoc(path, old)
	if err != nil {
		return nil, err
	}
	if removed, err := d.uninstallMCP(); err != nil || !removed {
		return res, err
	}
	return finishUninstall(res, d, nil, old, opts.DryRun)
}

// finishUninstall writes the document an uninstall left in d, whose file
// held old: the backup's bytes when they hold the same JSON up to empty
// containers (the backup is then removed), nothing at all (the file is
// deleted) when there is no backup and only skeleton is left, else d's
// bytes after backing old up. With dryRun only res is filled in.
func finishUninstall(res *Result, d *jsonDoc, skeleton []Field, old []byte, dryRun bool) (*Result, error) {
	path := res.Path
	out, newName := d.bytes(), path
	res.Action = Updated
	bakPath := path + BackupSuffix
	switch bak, err := os.ReadFile(bakPath); {
	case err == nil:
		if bd, perr := parseJSONDoc(bakPath, bak); perr == nil && sameJSONIgnoringEmpty(d, bd) {
			out, res.Restored = bak, true
		}
	case errors.Is(err, fs.ErrNotExist):
		if !isSymlinkPath(path) && sameJSONIgnoringEmpty(d, newJSONDoc(path, skeleton)) {
			out, newName, res.Action = nil, "/dev/null", Removed
		}
	default:
		return nil, fmt.Errorf("reading the backup: %w", err)
	}
	res.Diff = unifiedDiff(path, newName, old, out)
	if dryRun {
		return res, nil
	}
	switch {
	case res.Action == Removed:
		return res, removeConfig(path)
	case res.Restored:
		if err := writeConfig(path, out); err != nil {
			return nil, err
		}
		return res, os.Remove(bakPath)
	}
	var err error
	if res.Backup, err = backupConfig(path, old); err != nil {
		return nil, err
	}
	return res, writeConfig(path, out)
}
