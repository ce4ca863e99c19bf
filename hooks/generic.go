package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/tidwall/gjson"

	"github.com/lsp-hook/lsp-hook/wire"
)

// Generic is the adapter for any agent runtime that can run a command with
// a JSON event on stdin: PathField and ContentField are gjson paths
// (https://github.com/tidwall/gjson/blob/master/SYNTAX.md) to the changed
// file's path and, optionally, its new text. The path may be a string or
// an array of strings (several files), absolute or relative to the hook's
// working directory; with a content (a string, for a single path) the
// change is a write of that text, without one an edit read from disk.
//
// The answer is the wire.Result as JSON (DESIGN.md "Socket and wire
// protocol"), printed whether or not there are diagnostics; with Inject,
// the event itself with a "lint" field holding the lint block (replacing
// one the event had, other bytes unchanged). An event whose path field is
// absent is not checked: nothing is printed, or with Inject the event is
// echoed as it came.
type Generic struct {
	PathField, ContentField string // gjson paths; ContentField may be ""
	Inject                  bool   // echo the event with "lint" instead of the Result
}

var _ Adapter = Generic{}

// Name returns "generic".
func (Generic) Name() string { return "generic" }

// Decode reads one JSON object and takes the path and content fields. A
// malformed event, a path field that is not a string or an array of
// strings, or a content field that is not a string, is an error.
func (g Generic) Decode(r io.Reader) (Event, error) {
	data, err := readEvent(r)
	if err != nil {
		return Event{}, fmt.Errorf("decoding hook event: %w", err)
	}
	var obj map[string]json.RawMessage
	if err := unmarshalOne(data, &obj); err != nil {
		return Event{}, fmt.Errorf("decoding hook event: want one JSON object: %w", err)
	}
	out := Event{Agent: "generic", Raw: bytes.TrimSpace(data)}
	pv := gjson.GetBytes(data, g.PathField)
	var paths []string
	switch {
	case !pv.Exists() || pv.Type == gjson.Null:
		return out, nil
	case pv.Type == gjson.String:
		paths = []string{pv.String()}
	case pv.IsArray():
		for _, v := range pv.Array() {
			if v.Type != gjson.String {
				return out, fmt.Errorf("path field %s: want strings, found %s", g.PathField, v.Type)
			}
			paths = append(paths, v.String())
		}
	default:
		return out, fmt.Errorf("path field %s: want a string or an array of strings, found %s", g.PathField, pv.Type)
	}
	var content *string
	if g.ContentField != "" {
		cv := gjson.GetBytes(data, g.ContentField)
		switch {
		case !cv.Exists() || cv.Type == gjson.Null:
		case cv.Type != gjson.String:
			return out, fmt.Errorf("content field %s: want a string, found %s", g.ContentField, cv.Type)
		case len(paths) != 1:
			return out, fmt.Errorf("content field %s: one content for %d paths", g.ContentField, len(paths))
		default:
			s := cv.String()
			content = &s
		}
	}
	for _, p := range paths {
		if p == "" {
			return out, fmt.Errorf("path field %s: empty path", g.PathField)
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		c := wire.Change{Path: p, Mode: wire.ModeEdit}
		if content != nil {
			c.Mode, c.Content = wire.ModeWrite, content
		}
		out.Changes = append(out.Changes, c)
	}
	return out, nil
}

// Encode prints the Result, or the event with its lint merged (Inject).
func (g Generic) Encode(ev Event, res wire.Result) (Answer, error) {
	if !g.Inject {
		if len(ev.Changes) == 0 {
			return Answer{}, nil
		}
		return jsonAnswer(res)
	}
	if len(ev.Changes) == 0 {
		return Answer{Stdout: append(bytes.Clone(ev.Raw), '\n')}, nil
	}
	merged, err := mergeLint(ev.Raw, res.Lint)
	if err != nil {
		return Answer{}, err
	}
	return Answer{Stdout: append(merged, '\n')}, nil
}

// mergeLint sets the "lint" member of the JSON object raw to lint (with
// <, > and & left readable), splicing it in with setKey: every other byte
// stays as it was.
func mergeLint(raw []byte, lint string) ([]byte, error) {
	var val bytes.Buffer
	enc := json.NewEncoder(&val)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(lint); err != nil {
		return nil, err
	}
	out, err := setKey(raw, "lint", bytes.TrimSpace(val.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("merging lint into the event: %w", err)
	}
	return out, nil
}
