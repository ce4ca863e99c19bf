package install

import (
	"fmt"
	"strings"

	"github.com/tailscale/hujson"
)

// This file adds and removes lsp-hook's entries in a parsed hooks file
// (see Target for the shapes). An entry is lsp-hook's when one of its
// command fields runs `lsp-hook hook <agent>` (IsHookCommand); nothing
// else in the file is looked at or touched.

// entryValue is the JSON install appends to hooks.<e.Event> for command:
// the handler, or a matcher group holding it.
func entryValue(e Entry, command string) any {
	h := make(jsonFields, len(e.Handler))
	for i, f := range e.Handler {
		if s, ok := f.Value.(string); ok {
			f.Value = strings.ReplaceAll(s, commandPlaceholder, command)
		}
		h[i] = f
	}
	if !e.Grouped {
		return h
	}
	var g jsonFields
	if e.Matcher != "" {
		g = append(g, Field{"matcher", e.Matcher})
	}
	return append(g, Field{"hooks", []any{h}})
}

// isLSPHookHandler reports whether v is a handler object whose command runs
// `lsp-hook hook <agent>`.
func isLSPHookHandler(v hujson.Value, agent string) bool {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return false
	}
	for _, k := range commandKeys {
		if s, ok := jsonString(obj, k); ok && IsHookCommand(s, agent) {
			return true
		}
	}
	return false
}

// groupHandlers returns the "hooks" array of a matcher group, or nil when v
// is not an object with one (a handler, or something else).
func groupHandlers(v hujson.Value) *hujson.Array {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil
	}
	i := jsonMember(obj, "hooks")
	if i < 0 {
		return nil
	}
	arr, _ := obj.Members[i].Value.Value.(*hujson.Array)
	return arr
}

// removeLSPHookHandlers removes agent's handlers from an event's array: handlers in
// it, and handlers inside its matcher groups, dropping a group it empties.
// It returns how many handlers it removed.
func removeLSPHookHandlers(arr *hujson.Array, agent string) int {
	removed := 0
	for i := len(arr.Elements) - 1; i >= 0; i-- {
		el := arr.Elements[i]
		if inner := groupHandlers(el); inner != nil {
			n := 0
			for j := len(inner.Elements) - 1; j >= 0; j-- {
				if isLSPHookHandler(inner.Elements[j], agent) {
					jsonRemoveElement(inner, j)
					n++
				}
			}
			removed += n
			if n > 0 && len(inner.Elements) == 0 {
				jsonRemoveElement(arr, i)
			}
			continue
		}
		if isLSPHookHandler(el, agent) {
			jsonRemoveElement(arr, i)
			removed++
		}
	}
	return removed
}

// entryUpToDate reports whether an event's array already holds exactly the
// entry install would write: one lsp-hook handler for the agent, with the
// wanted field values (other fields, such as a timeout the user added,
// are allowed), alone in a group with the wanted matcher when e is
// grouped.
func entryUpToDate(arr *hujson.Array, e Entry, command, agent string) bool {
	var found []hujson.Value // our handlers
	var group *hujson.Object // the group of the last one found
	var groupSize int
	for _, el := range arr.Elements {
		if inner := groupHandlers(el); inner != nil {
			for _, h := range inner.Elements {
				if isLSPHookHandler(h, agent) {
					found = append(found, h)
					group, groupSize = el.Value.(*hujson.Object), len(inner.Elements)
				}
			}
			continue
		}
		if isLSPHookHandler(el, agent) {
			found = append(found, el)
			group = nil
		}
	}
	if len(found) != 1 {
		return false
	}
	if e.Grouped {
		if group == nil || groupSize != 1 {
			return false
		}
		if m, _ := jsonString(group, "matcher"); m != e.Matcher {
			return false // "" when there is none
		}
	} else if group != nil {
		return false
	}
	h := found[0].Value.(*hujson.Object)
	for _, f := range entryValue(Entry{Handler: e.Handler}, command).(jsonFields) {
		i := jsonMember(h, f.Key)
		if i < 0 || !jsonSame(h.Members[i].Value, f.Value) {
			return false
		}
	}
	return true
}

// install makes the document hold t's entries for o (Target.entries)
// running o.Command, and reports whether it changed anything.
// An entry already there as wanted is left alone; an lsp-hook entry for
// the agent that differs (another command, matcher or shape) is replaced
// by the wanted one at the end of the event's array. A container of the
// wrong kind on the way (a "hooks" that is an array, an event that is an
// object) is an error and nothing is changed.
func (d *jsonDoc) install(t *Target, o Options) (bool, error) {
	command := o.Command
	changed := false
	for _, e := range t.entries(o) {
		command := entryCommand(e, command, o.NoShell)
		hooks, hooksInd, err := d.topObject("hooks")
		if err != nil {
			return false, err
		}
		value := entryValue(e, command)
		i := -1
		if hooks != nil {
			i = jsonMember(hooks, e.Event)
		}
		if i < 0 {
			d.addUnder("hooks", hooks, hooksInd, e.Event, []any{value})
			changed = true
			continue
		}
		m := &hooks.Members[i]
		arr, ok := m.Value.Value.(*hujson.Array)
		if !ok {
			return false, fmt.Errorf("%s: %w: hooks.%s is %s, want an array", d.path, ErrBadConfig, e.Event, jsonKind(m.Value))
		}
		if entryUpToDate(arr, e, command, t.Agent) {
			continue
		}
		ind, ok := extraLineIndent(m.Name.BeforeExtra)
		if !ok {
			ind = hooksInd
		}
		removeLSPHookHandlers(arr, t.Agent)
		d.appendElement(arr, ind, value)
		changed = true
	}
	retired, err := d.retire(t, o)
	return changed || retired, err
}

// retire removes the agent's handlers from t.Retired events that no entry
// written with o has, and an event array this leaves empty; it reports
// whether it removed any.
func (d *jsonDoc) retire(t *Target, o Options) (bool, error) {
	hooks, _, err := d.topObject("hooks")
	if err != nil || hooks == nil {
		return false, err
	}
	written := make(map[string]bool)
	for _, e := range t.entries(o) {
		written[e.Event] = true
	}
	removed := false
	for _, ev := range t.Retired {
		i := jsonMember(hooks, ev)
		if i < 0 || written[ev] {
			continue
		}
		arr, ok := hooks.Members[i].Value.Value.(*hujson.Array)
		if ok && removeLSPHookHandlers(arr, t.Agent) > 0 {
			removed = true
			if len(arr.Elements) == 0 {
				jsonRemoveMember(hooks, i)
			}
		}
	}
	return removed, nil
}

// uninstall removes every lsp-hook handler for agent from every event of
// the document, then the groups, event arrays and "hooks" object that
// this left empty (and only those). It returns how many handlers it
// removed.
func (d *jsonDoc) uninstall(agent string) (int, error) {
	hooks, _, err := d.topObject("hooks")
	if err != nil || hooks == nil {
		return 0, err
	}
	total := 0
	for i := len(hooks.Members) - 1; i >= 0; i-- {
		arr, ok := hooks.Members[i].Value.Value.(*hujson.Array)
		if !ok {
			continue // Gemini's hooks.enabled and the like
		}
		n := removeLSPHookHandlers(arr, agent)
		total += n
		if n > 0 && len(arr.Elements) == 0 {
			jsonRemoveMember(hooks, i)
		}
	}
	if total > 0 {
		d.dropEmptyTop("hooks", hooks)
	}
	return total, nil
}
