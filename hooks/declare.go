package hooks

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lsp-hook/lsp-hook/config"
)

// YAML hook declarations are how agent runtimes wire lsp-hook in without an
// adapter (DESIGN.md "Config", the `hooks:` key):
//
//	hooks:
//	  - id: auto_lint
//	    "on": tool_end                      # or tool_start, or a list of both
//	    condition: {type: tool_name, match: "filesystem.write|workspace.*"}
//	    action: {type: lsp_diagnose, path_field: tool.params.path,
//	             content_field: tool.params.content, read_from_disk: false,
//	             inject_result: true, publish: true}
//
// Every key is checked when the declarations are loaded; see Declaration
// for what each means and runner.go for how events are matched.

// Phase is when a declaration fires: the `on:` key.
type Phase string

// Phases a declaration can name.
const (
	PhaseToolEnd   Phase = "tool_end"   // after the tool ran (its result is in the event)
	PhaseToolStart Phase = "tool_start" // before the tool runs (the file is not written yet)
)

// Condition and action types.
const (
	ConditionToolName = "tool_name"    // match the event's tool name (fnmatch globs, `|`)
	ConditionPath     = "path"         // match the path at the action's path_field (doublestar globs, `|`)
	ActionLSPDiagnose = "lsp_diagnose" // check the file and report its diagnostics
)

// Declaration is one validated hook declaration.
type Declaration struct {
	// ID names the declaration in errors, the log and the daemon's source
	// ("hooks:ID"); unique within a list.
	ID string
	// On lists the phases the declaration fires in (`on:`, a phase or a
	// list of phases).
	On []Phase
	// Condition selects the events (optional: without one every event of
	// the phase whose path_field resolves matches).
	Condition Condition
	// Action says what to do with a matching event.
	Action Action
	// File and Line locate the declaration ("" and 0 when it did not come
	// from a file): the config file or --config file, 1-based line.
	File string
	Line int

	tools toolGlobs // compiled Condition.Match for tool_name
	paths pathGlobs // compiled Condition.Match for path
}

// Condition is a declaration's `condition:`. Type is ConditionToolName or
// ConditionPath ("" when the declaration has no condition); Match is one or
// more globs separated by `|` (glob.go has both dialects).
type Condition struct {
	Type  string
	Match string
}

// Action is a declaration's `action:`; Type is ActionLSPDiagnose, the only
// action.
type Action struct {
	Type string
	// PathField is the gjson path (github.com/tidwall/gjson syntax) of the
	// changed file's path in the event: absolute, or relative to the
	// workspace root. Required.
	PathField string
	// ContentField is the gjson path of the file's new text in the event;
	// used when ReadFromDisk is false.
	ContentField string
	// ReadFromDisk checks the file as it is on disk; false checks the text
	// at ContentField instead, without touching the file (the servers see
	// it through didChange). Default: true without content_field, false
	// with it.
	ReadFromDisk bool
	// InjectResult writes the lint block back into the event (runner.go,
	// injectLint); Publish sends the check to the daemon's subscribers
	// (`lsp-hook subscribe`). At least one must be set.
	InjectResult bool
	Publish      bool
	// Mode is wire.ModeWrite (the default: the lint block also names
	// other files the change broke) or wire.ModeEdit (the file, and the
	// errors the change introduced in other files; config
	// output.other_files says which other files each mode lists).
	Mode string
}

// String names the declaration as errors do: `hook "ID"`.
func (d *Declaration) String() string { return "hook " + strconv.Quote(d.ID) }

// fires reports whether d fires in phase ("" when the event names none:
// every declaration does).
func (d *Declaration) fires(phase Phase) bool {
	return phase == "" || slices.Contains(d.On, phase)
}

// DeclarationError is one problem with a hook declaration: where it is
// (File and 1-based Line, when known), which hook (Hook: `hook "ID"`, or
// `hook #N`, 1-based, when it has no id), the key at fault
// ("condition.match"; "" for the whole declaration) and what is wrong.
type DeclarationError struct {
	File    string
	Line    int
	Hook    string
	Key     string
	Message string
}

// Error renders "file:line: hook "ID": key: message", leaving out the parts
// that are unknown.
func (e *DeclarationError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	b.WriteString(e.Hook)
	if e.Key != "" {
		b.WriteString(": " + e.Key)
	}
	b.WriteString(": " + e.Message)
	return b.String()
}

// ErrNoDeclarations is returned when a file or config holds no hook
// declarations.
var ErrNoDeclarations = errors.New("no hook declarations")

// LoadDeclarations reads and decodes the declarations in file: a YAML (or
// JSON) document that is either a list of declarations, a mapping whose
// `hooks:` key holds one (other keys are ignored, so a whole .lsp-hook.yaml
// will do), or a mapping whose `runtime:` mapping has that `hooks:` list
// (the agent runtime's app config, as it is).
func LoadDeclarations(file string) ([]Declaration, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading hook declarations: %w", err)
	}
	return ParseDeclarations(data, file)
}

// ParseDeclarations decodes declarations from data, the text of file (named
// in errors; may be ""), as LoadDeclarations does.
func ParseDeclarations(data []byte, file string) ([]Declaration, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("parsing hook declarations in %s: %w", orStdin(file), err)
	}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: %w", orStdin(file), ErrNoDeclarations)
	}
	top := doc.Content[0]
	if top.Kind == yaml.MappingNode {
		list := mappingValue(top, "hooks")
		if rt := mappingValue(top, "runtime"); list == nil && rt != nil && rt.Kind == yaml.MappingNode {
			list = mappingValue(rt, "hooks") // the agent runtime's app config: runtime: {hooks: [...]}
		}
		if list == nil {
			return nil, fmt.Errorf("%s: %w: want a list, a mapping with a hooks: list, or one whose runtime: has a hooks: list", orStdin(file), ErrNoDeclarations)
		}
		top = list
	}
	return DecodeDeclarations(top, file)
}

// mappingValue returns the value of key in the YAML mapping m, or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func orStdin(file string) string {
	if file == "" {
		return "hook declarations"
	}
	return file
}

// ConfigDeclarations decodes the `hooks:` list of a loaded config (kept as
// written in cfg.Hooks), naming the file it came from in errors. No list
// is ErrNoDeclarations.
func ConfigDeclarations(cfg *config.Config) ([]Declaration, error) {
	if cfg.Hooks == nil {
		return nil, fmt.Errorf("%w in the config (add a hooks: list to %s, or pass --config)", ErrNoDeclarations, config.FileName)
	}
	file, _ := config.SplitSource(cfg.Sources["hooks"])
	return DecodeDeclarations(cfg.Hooks, file)
}

// DecodeDeclarations decodes and validates a YAML list of declarations
// from file ("" when not from a file). Every problem is returned, joined,
// each a *DeclarationError naming the hook; the declarations are returned
// only when there is none.
func DecodeDeclarations(list *yaml.Node, file string) ([]Declaration, error) {
	if list.Kind != yaml.SequenceNode {
		return nil, &DeclarationError{File: file, Line: list.Line, Hook: "hooks", Message: "want a list of hook declarations (id, on, condition, action)"}
	}
	if len(list.Content) == 0 {
		return nil, fmt.Errorf("%s:%d: %w", orStdin(file), list.Line, ErrNoDeclarations)
	}
	var (
		out   []Declaration
		errs  []error
		first = make(map[string]int) // id → line of its first declaration
	)
	for i, n := range list.Content {
		d, derrs := decodeOne(n, i, file)
		if d.ID != "" {
			if line, dup := first[d.ID]; dup {
				derrs = append(derrs, &DeclarationError{File: file, Line: n.Line, Hook: d.String(),
					Key: "id", Message: fmt.Sprintf("duplicate id (first declared on line %d)", line)})
			} else {
				first[d.ID] = n.Line
			}
		}
		errs = append(errs, derrs...)
		out = append(out, d)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// WorkspaceDeclarations returns the declarations of the workspace config
// at root (its `hooks:` list; the user config's when the workspace has
// none), or ErrNoDeclarations. A config problem with the `hooks:` key
// itself is an error; problems with other keys are not this function's.
func WorkspaceDeclarations(root string) ([]Declaration, error) {
	cfg, problems := config.Load(root) // the hooks: key is config's to check
	var errs []error
	for _, p := range problems {
		if p.Key == "hooks" || strings.HasPrefix(p.Key, "hooks.") {
			errs = append(errs, p)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return ConfigDeclarations(cfg)
}
