package install

import (
	"errors"
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
// syntax-tree helpers as the hook files (json.go, jsonedit.go) and goes
// through the same steps (file.go), so it keeps the same guarantees as Add
// and Remove: other servers and every other byte stay, installing twice
// changes nothing, uninstalling gives back the original bytes, the first
// change backs the file up, DryRun writes nothing.

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

// installMCP makes mcpServers.lsp-hook the entry for program; an entry
// there already with the same JSON is left alone, a different one is
// replaced at the end of the object.
func (d *jsonDoc) installMCP(program string) error {
	servers, ind, err := d.topObject("mcpServers")
	if err != nil {
		return err
	}
	entry := mcpServerEntry(program)
	if servers != nil {
		if i := jsonMember(servers, mcpServerName); i >= 0 {
			if jsonSame(servers.Members[i].Value, entry) {
				return nil
			}
			jsonRemoveMember(servers, i)
		}
	}
	d.addUnder("mcpServers", servers, ind, mcpServerName, entry)
	return nil
}

// uninstallMCP removes lsp-hook's entry from mcpServers, and mcpServers
// when that left it empty. It reports whether it removed anything.
func (d *jsonDoc) uninstallMCP() (bool, error) {
	servers, _, err := d.topObject("mcpServers")
	if err != nil || servers == nil {
		return false, err
	}
	i := jsonMember(servers, mcpServerName)
	if i < 0 || !isLSPHookMCPEntry(servers.Members[i].Value) {
		return false, nil
	}
	jsonRemoveMember(servers, i)
	d.dropEmptyTop("mcpServers", servers)
	return true, nil
}

// mcpNotes are the notes of a change to .mcp.json.
func mcpNotes() []string {
	return []string{"Claude Code asks you to approve a project's .mcp.json servers when a session starts; /mcp lists them."}
}

// mcpEdit is the change edit makes to the project's .mcp.json
// (MCPConfigPath); Result.Target is Claude Code's.
func mcpEdit(opts Options, edit func(d *jsonDoc) (bool, error)) (*fileEdit, error) {
	path, err := MCPConfigPath(opts)
	if err != nil {
		return nil, err
	}
	t, _ := Lookup("claude")
	return &fileEdit{target: t, path: path, edit: edit, notes: mcpNotes}, nil
}

// AddMCP registers `program mcp` as the "lsp-hook" server in the
// project's .mcp.json (MCPConfigPath), creating the file when needed.
// opts.Command and opts.Batch are not used. Result.Target is Claude Code's.
func AddMCP(program string, opts Options) (*Result, error) {
	e, err := mcpEdit(opts, func(d *jsonDoc) (bool, error) { return true, d.installMCP(program) })
	if err != nil {
		return nil, err
	}
	return e.add(opts.DryRun)
}

// RemoveMCP removes the "lsp-hook" server from the project's .mcp.json
// when it runs lsp-hook, and mcpServers when that left it empty; like
// Remove it restores the backup when the result equals it up to empty
// containers, and deletes a file that install created and that is now
// empty.
func RemoveMCP(opts Options) (*Result, error) {
	e, err := mcpEdit(opts, (*jsonDoc).uninstallMCP)
	if err != nil {
		return nil, err
	}
	return e.remove(opts.DryRun)
}
