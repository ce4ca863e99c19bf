package hooks

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lsp-hook/lsp-hook/wire"
)

// This file parses the body of Codex's apply_patch tool: a file-oriented
// diff in an envelope, whose grammar the tool's own instructions give
// (openai/codex, codex-rs/core/src/tools/handlers/apply_patch.rs,
// create_apply_patch_json_tool):
//
//	Patch      := "*** Begin Patch" NEWLINE { FileOp } "*** End Patch" NEWLINE
//	FileOp     := AddFile | DeleteFile | UpdateFile
//	AddFile    := "*** Add File: " path NEWLINE { "+" line NEWLINE }
//	DeleteFile := "*** Delete File: " path NEWLINE
//	UpdateFile := "*** Update File: " path NEWLINE [ MoveTo ] { Hunk }
//	MoveTo     := "*** Move to: " newPath NEWLINE
//	Hunk       := "@@" [ header ] NEWLINE { HunkLine } [ "*** End of File" NEWLINE ]
//	HunkLine   := (" " | "-" | "+") text NEWLINE
//
// Paths are relative to the working directory. Only the file operations
// matter here (the hunks were already applied when the hook runs), but the
// body is checked against the grammar, so something else is not taken for
// a patch. As Codex's own parser, marker lines may carry surrounding
// blanks, text before "*** Begin Patch" (a heredoc's first line) and after
// "*** End Patch" is ignored, and an empty line inside a hunk is an empty
// context line.

// PatchKind is what a patch does to one file.
type PatchKind string

// Patch operations.
const (
	PatchAdd    PatchKind = "add"
	PatchUpdate PatchKind = "update"
	PatchDelete PatchKind = "delete"
)

// PatchOp is one file operation of an apply_patch body: Path as written
// (relative to the working directory, or absolute), and for an update
// with "*** Move to:" the new path.
type PatchOp struct {
	Kind   PatchKind // add, update or delete
	Path   string    // the file's path in its header
	MoveTo string    // an update's "*** Move to:" path, or ""
}

// ErrNotPatch is returned for text without a "*** Begin Patch" line.
var ErrNotPatch = errors.New(`not an apply_patch body: no "*** Begin Patch" line`)

// Patch markers.
const (
	patchBegin     = "*** Begin Patch"
	patchEnd       = "*** End Patch"
	patchAdd       = "*** Add File:"
	patchDelete    = "*** Delete File:"
	patchUpdate    = "*** Update File:"
	patchMoveTo    = "*** Move to:"
	patchEndOfFile = "*** End of File"
)

// ParsePatch returns the file operations of an apply_patch body, in
// order. It fails with ErrNotPatch without a begin marker, and with an
// error naming the line (1-based) for a missing end marker, an unknown
// "***" header, an empty path, a Move to that does not follow its Update
// header, or a line that does not belong where it is.
func ParsePatch(body string) ([]PatchOp, error) {
	lines := strings.Split(strings.TrimSuffix(strings.ReplaceAll(body, "\r\n", "\n"), "\n"), "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == patchBegin {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, ErrNotPatch
	}
	var ops []PatchOp
	hunks := false // the current update has a hunk line already
	for i := start + 1; i < len(lines); i++ {
		l := lines[i]
		marker := strings.TrimSpace(l)
		cur := len(ops) - 1
		switch {
		case marker == patchEnd:
			return ops, nil
		case strings.HasPrefix(marker, "***") && marker != patchEndOfFile:
			op, err := patchHeader(marker)
			if err != nil {
				return nil, fmt.Errorf("patch line %d: %w", i+1, err)
			}
			if op.Kind == "" { // Move to
				if cur < 0 || ops[cur].Kind != PatchUpdate || ops[cur].MoveTo != "" || hunks {
					return nil, fmt.Errorf("patch line %d: %q does not follow an %q header", i+1, patchMoveTo, patchUpdate)
				}
				ops[cur].MoveTo = op.MoveTo
				continue
			}
			ops, hunks = append(ops, op), false
		case cur < 0:
			if marker != "" {
				return nil, fmt.Errorf("patch line %d: %q before any file header", i+1, clip(l))
			}
		case ops[cur].Kind == PatchAdd:
			if !strings.HasPrefix(l, "+") {
				return nil, fmt.Errorf("patch line %d: a line of an added file must start with '+': %q", i+1, clip(l))
			}
		case ops[cur].Kind == PatchDelete:
			if marker != "" {
				return nil, fmt.Errorf("patch line %d: nothing may follow %q: %q", i+1, patchDelete, clip(l))
			}
		default: // update
			switch {
			case l == "" || marker == patchEndOfFile || strings.HasPrefix(l, "@@"),
				l[0] == ' ' || l[0] == '-' || l[0] == '+':
				hunks = true
			default:
				return nil, fmt.Errorf("patch line %d: a hunk line must start with ' ', '-', '+' or \"@@\": %q", i+1, clip(l))
			}
		}
	}
	return nil, fmt.Errorf("patch has no %q line", patchEnd)
}

// patchHeader parses a "***" file header; Move to comes back with an
// empty Kind.
func patchHeader(marker string) (PatchOp, error) {
	var op PatchOp
	var path string
	switch {
	case strings.HasPrefix(marker, patchAdd):
		op.Kind, path = PatchAdd, marker[len(patchAdd):]
	case strings.HasPrefix(marker, patchDelete):
		op.Kind, path = PatchDelete, marker[len(patchDelete):]
	case strings.HasPrefix(marker, patchUpdate):
		op.Kind, path = PatchUpdate, marker[len(patchUpdate):]
	case strings.HasPrefix(marker, patchMoveTo):
		path = marker[len(patchMoveTo):]
	default:
		return op, fmt.Errorf("unknown header %q", clip(marker))
	}
	path = strings.TrimSpace(path)
	if path == "" {
		return op, fmt.Errorf("%q names no path", clip(marker))
	}
	if op.Kind == "" {
		op.MoveTo = path
	} else {
		op.Path = path
	}
	return op, nil
}

// clip shortens a line quoted in an error.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// PatchChanges returns the changes a patch made, paths resolved against
// dir: an added file is a write, an updated one an edit, and a moved one
// a write at its new path. A deleted file, and a moved file's old path,
// is a write of a path that is gone: the daemon tells the servers it is
// gone and lists the files its going broke (callers of what it defined,
// importers of it), as the compiler does; without it a patch that only
// deleted a file was answered in silence over a build it broke. An added
// file's change says it had no text before (wire.Change.Before ""), for
// the session's record.
func PatchChanges(ops []PatchOp, dir string) []wire.Change {
	var out []wire.Change
	for _, op := range ops {
		switch {
		case op.Kind == PatchAdd: // the patch created it: nothing before (a session's record)
			out = append(out, wire.Change{Path: absUnder(dir, op.Path), Mode: wire.ModeWrite, Before: new(string)})
		case op.Kind == PatchUpdate && op.MoveTo != "":
			out = append(out, wire.Change{Path: absUnder(dir, op.Path), Mode: wire.ModeWrite},
				wire.Change{Path: absUnder(dir, op.MoveTo), Mode: wire.ModeWrite})
		case op.Kind == PatchUpdate:
			out = append(out, wire.Change{Path: absUnder(dir, op.Path), Mode: wire.ModeEdit})
		case op.Kind == PatchDelete:
			out = append(out, wire.Change{Path: absUnder(dir, op.Path), Mode: wire.ModeWrite})
		}
	}
	return mergeChanges(out)
}
