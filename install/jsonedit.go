package install

import (
	"bytes"
	"encoding/json"

	"github.com/tailscale/hujson"
)

// This file appends values to and removes them from containers of a
// jsonDoc's syntax tree, in the file's own layout. placeNew and
// unplaceExtra are inverses: a value appended and then removed leaves the
// container's bytes as they were, comments included.

// extraLineIndent returns the whitespace after the last newline of extra: the
// indentation of the line the following value starts on. ok is false when
// extra has no newline or something other than blanks follows it.
func extraLineIndent(extra hujson.Extra) (ind string, ok bool) {
	i := bytes.LastIndexByte(extra, '\n')
	if i < 0 {
		return "", false
	}
	rest := extra[i+1:]
	if len(bytes.Trim(rest, " \t")) != 0 {
		return "", false
	}
	return string(rest), true
}

// extraMultiline reports whether a container's items sit on lines of their own:
// some item's extra, or the extra before the closing bracket, has a newline.
func extraMultiline(befores []hujson.Extra, after hujson.Extra) bool {
	for _, b := range befores {
		if bytes.IndexByte(b, '\n') >= 0 {
			return true
		}
	}
	return bytes.IndexByte(after, '\n') >= 0
}

// placeNew decides where a value appended to a container goes. befores
// are the extras before the container's items (before each member's name
// for an object), after is the extra before the closing bracket, ind the
// indentation of the container's line, and isRoot says the container is
// the top-level object. It returns the new item's extra, the indentation
// its own nested lines build on, and whether to write the value over
// several lines; *after is updated.
//
// In a multi-line container, and in an empty one unless the file is a
// single line (the top-level object is always opened up), the new item
// goes on a line of its own at its siblings' indentation. Whatever sat
// before the closing bracket's line (a trailing comment of the former last
// item) stays on that line, so the new item's extra is
// after[:lastNewline] + "\n" + indent and the closing keeps
// after[lastNewline:]; unplaceExtra undoes exactly this. In a one-line
// container the item follows its siblings' spacing.
func (d *jsonDoc) placeNew(befores []hujson.Extra, after *hujson.Extra, ind string, isRoot bool) (before hujson.Extra, itemInd string, pretty bool) {
	n := len(befores)
	open := extraMultiline(befores, *after) || (n == 0 && (isRoot || !d.oneLine))
	if !open {
		switch {
		case n >= 2:
			before = extraConcat(befores[n-1])
		case n == 1 && !d.compact:
			before = hujson.Extra(" ")
		}
		return before, ind, false
	}
	itemInd = ind + d.unit
	if n > 0 {
		if li, ok := extraLineIndent(befores[n-1]); ok {
			itemInd = li
		}
	}
	a := *after
	if i := lastLineBreak(a); i >= 0 {
		before = extraConcat(a[:i], []byte(d.nl+itemInd))
		*after = extraConcat(a[i:])
	} else {
		before = extraConcat(a, []byte(d.nl+itemInd))
		*after = hujson.Extra(d.nl + ind)
	}
	return before, itemInd, true
}

// unplaceExtra is the inverse of placeNew for an item being removed whose
// extra is before; next is the following item's extra and after the
// closing one. Comments on the previous line (ahead of before's last line
// break) move to the next item's extra, or to the closing extra when the
// item is the last one.
func unplaceExtra(before hujson.Extra, next *hujson.Extra, after *hujson.Extra, isLast bool) {
	j := lastLineBreak(before)
	if isLast {
		if j >= 0 {
			*after = extraConcat(before[:j], *after)
		}
		return
	}
	k := bytes.IndexByte(*next, '\n')
	if k > 0 && (*next)[k-1] == '\r' {
		k--
	}
	switch {
	case k < 0:
		*next = extraConcat(before) // the next item was on the removed one's line
	case j >= 0:
		*next = extraConcat(before[:j], (*next)[k:])
	}
}

// lastLineBreak returns the index of the last line break in b ("\n", or
// the "\r" of a final "\r\n"), or -1.
func lastLineBreak(b []byte) int {
	i := bytes.LastIndexByte(b, '\n')
	if i > 0 && b[i-1] == '\r' {
		i--
	}
	return i
}

// extraConcat returns a new Extra holding parts in order.
func extraConcat(parts ...[]byte) hujson.Extra {
	out := hujson.Extra{}
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// render makes a syntax tree of v for a value whose line is indented by
// ind: indented with the file's unit and line ending, or compact.
func (d *jsonDoc) render(v any, ind string, pretty bool) hujson.Value {
	var b []byte
	var err error
	if pretty {
		b, err = json.MarshalIndent(v, ind, d.unit)
		if d.nl != "\n" {
			b = bytes.ReplaceAll(b, []byte("\n"), []byte(d.nl))
		}
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		panic(err) // entries are fields, strings, bools and slices of them
	}
	val, err := hujson.Parse(b)
	if err != nil {
		panic(err)
	}
	return val
}

// appendMember adds key: v at the end of obj, whose line is indented by ind.
func (d *jsonDoc) appendMember(obj *hujson.Object, ind, key string, v any) {
	isRoot := obj == d.root.Value.(*hujson.Object)
	befores := make([]hujson.Extra, len(obj.Members))
	for i, m := range obj.Members {
		befores[i] = m.Name.BeforeExtra
	}
	before, itemInd, pretty := d.placeNew(befores, &obj.AfterExtra, ind, isRoot)
	colon := hujson.Extra(" ")
	if n := len(obj.Members); d.compact || (n > 0 && len(obj.Members[n-1].Value.BeforeExtra) == 0) {
		colon = nil
	}
	val := d.render(v, itemInd, pretty)
	val.BeforeExtra = colon
	m := hujson.ObjectMember{Name: hujson.Value{BeforeExtra: before, Value: hujson.String(key)}, Value: val}
	if n := len(obj.Members); n > 0 && obj.Members[n-1].Value.AfterExtra != nil {
		m.Value.AfterExtra = hujson.Extra{} // keep the trailing comma
	}
	obj.Members = append(obj.Members, m)
}

// addUnder adds name: v at the end of top, the top-level object key
// whose line is indented by ind (topObject's results); when top is nil
// it adds key: {name: v} at the end of the document instead.
func (d *jsonDoc) addUnder(key string, top *hujson.Object, ind, name string, v any) {
	if top == nil {
		d.appendMember(d.root.Value.(*hujson.Object), "", key, jsonFields{{name, v}})
		return
	}
	d.appendMember(top, ind, name, v)
}

// dropEmptyTop removes the top-level member key when top, its object,
// has no members left: the inverse of addUnder creating it.
func (d *jsonDoc) dropEmptyTop(key string, top *hujson.Object) {
	if len(top.Members) == 0 {
		root := d.root.Value.(*hujson.Object)
		jsonRemoveMember(root, jsonMember(root, key))
	}
}

// appendElement adds v at the end of arr, whose line is indented by ind.
func (d *jsonDoc) appendElement(arr *hujson.Array, ind string, v any) {
	befores := make([]hujson.Extra, len(arr.Elements))
	for i, e := range arr.Elements {
		befores[i] = e.BeforeExtra
	}
	before, itemInd, pretty := d.placeNew(befores, &arr.AfterExtra, ind, false)
	val := d.render(v, itemInd, pretty)
	val.BeforeExtra = before
	if n := len(arr.Elements); n > 0 && arr.Elements[n-1].AfterExtra != nil {
		val.AfterExtra = hujson.Extra{}
	}
	arr.Elements = append(arr.Elements, val)
}

// jsonRemoveMember removes obj's member i, keeping the comments of the
// neighbouring lines and the container's trailing-comma style.
func jsonRemoveMember(obj *hujson.Object, i int) {
	n := len(obj.Members)
	var next *hujson.Extra
	if i+1 < n {
		next = &obj.Members[i+1].Name.BeforeExtra
	}
	unplaceExtra(obj.Members[i].Name.BeforeExtra, next, &obj.AfterExtra, i == n-1)
	removed := obj.Members[i].Value
	obj.Members = append(obj.Members[:i], obj.Members[i+1:]...)
	if i == n-1 && i > 0 {
		jsonFixTrailing(&obj.Members[i-1].Value, removed, &obj.AfterExtra)
	}
	if len(obj.Members) == 0 && len(bytes.TrimSpace(obj.AfterExtra)) == 0 {
		obj.AfterExtra = nil
	}
}

// jsonRemoveElement removes arr's element i, as jsonRemoveMember does.
func jsonRemoveElement(arr *hujson.Array, i int) {
	n := len(arr.Elements)
	var next *hujson.Extra
	if i+1 < n {
		next = &arr.Elements[i+1].BeforeExtra
	}
	unplaceExtra(arr.Elements[i].BeforeExtra, next, &arr.AfterExtra, i == n-1)
	removed := arr.Elements[i]
	arr.Elements = append(arr.Elements[:i], arr.Elements[i+1:]...)
	if i == n-1 && i > 0 {
		jsonFixTrailing(&arr.Elements[i-1], removed, &arr.AfterExtra)
	}
	if len(arr.Elements) == 0 && len(bytes.TrimSpace(arr.AfterExtra)) == 0 {
		arr.AfterExtra = nil
	}
}

// jsonFixTrailing gives last, the new last item of a container after removed
// was taken off its end, removed's trailing-comma state: hujson writes a
// trailing comma exactly when the last item's AfterExtra is non-nil.
func jsonFixTrailing(last *hujson.Value, removed hujson.Value, after *hujson.Extra) {
	switch {
	case removed.AfterExtra != nil && last.AfterExtra == nil:
		last.AfterExtra = hujson.Extra{}
	case removed.AfterExtra == nil && last.AfterExtra != nil:
		*after = extraConcat(last.AfterExtra, *after)
		last.AfterExtra = nil
	}
}
