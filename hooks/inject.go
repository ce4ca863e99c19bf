package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tidwall/gjson"
)

// injectLint returns event (one JSON object, valid) with the lint block
// merged into its result, for a declaration with inject_result:
//
//   - `result` is an object: its `lint` key is set to the block (replacing
//     one already there);
//   - `result` is absent or null: it becomes {"lint": block};
//   - `result` is a string (the tool output the model reads): the block is
//     appended to it after a blank line;
//   - `result` is anything else (number, boolean, array): it is left alone
//     and a top-level `lint` key is set instead.
//
// Everything else in the event keeps its bytes: keys, order, spacing and
// number forms are spliced around, not re-encoded. The key is the top-level
// "result" only; it is not configurable.
func injectLint(event []byte, lint string) ([]byte, error) {
	block, err := json.Marshal(lint)
	if err != nil {
		return nil, err
	}
	r := gjson.GetBytes(event, "result")
	switch {
	case !r.Exists():
		return setKey(event, "result", append(append([]byte(`{"lint":`), block...), '}'))
	case r.Type == gjson.Null:
		return splice(event, r, append(append([]byte(`{"lint":`), block...), '}'))
	case r.IsObject():
		obj, err := setKey([]byte(r.Raw), "lint", block)
		if err != nil {
			return nil, err
		}
		return splice(event, r, obj)
	case r.Type == gjson.String:
		s, err := json.Marshal(r.Str + "\n\n" + lint)
		if err != nil {
			return nil, err
		}
		return splice(event, r, s)
	}
	return setKey(event, "lint", block)
}

// setKey returns the JSON object obj with key set to the JSON value v:
// the old value replaced in place, or the key appended before the closing
// brace.
func setKey(obj []byte, key string, v []byte) ([]byte, error) {
	if old := gjson.GetBytes(obj, key); old.Exists() {
		return splice(obj, old, v)
	}
	end := bytes.LastIndexByte(obj, '}')
	start := bytes.IndexByte(obj, '{')
	if start < 0 || end < start {
		return nil, errors.New("not a JSON object")
	}
	k, _ := json.Marshal(key)
	head, sep := obj[:end], ""
	if len(bytes.TrimSpace(obj[start+1:end])) > 0 {
		// After the last member, before any whitespace ahead of the brace.
		head, sep = bytes.TrimRight(obj[:end], " \t\r\n"), ","
	}
	out := make([]byte, 0, len(obj)+len(k)+len(v)+2)
	out = append(out, head...)
	out = append(out, sep...)
	out = append(out, k...)
	out = append(out, ':')
	out = append(out, v...)
	return append(out, obj[len(head):]...), nil
}

// splice replaces the value r (found in doc by gjson, with its offset)
// with v.
func splice(doc []byte, r gjson.Result, v []byte) ([]byte, error) {
	i := r.Index
	if i <= 0 || i+len(r.Raw) > len(doc) || string(doc[i:i+len(r.Raw)]) != r.Raw {
		return nil, fmt.Errorf("cannot locate %s in the event", r.Raw)
	}
	out := make([]byte, 0, len(doc)-len(r.Raw)+len(v))
	out = append(out, doc[:i]...)
	out = append(out, v...)
	return append(out, doc[i+len(r.Raw):]...), nil
}
