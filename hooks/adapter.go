package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/lsp-hook/lsp-hook/sidecar"
)

// Adapter speaks one agent's hook protocol.
type Adapter interface {
	// Name is the agent's name as given to `lsp-hook hook NAME`.
	Name() string
	// Decode reads one hook event and returns the changes it describes
	// (none for events about other tools). A malformed event is an error.
	Decode(r io.Reader) (Event, error)
	// Encode writes the agent's answer carrying lint; nothing when lint is
	// empty.
	Encode(w io.Writer, lint string) error
}

// Event is what an adapter took from a hook event: the directory the agent
// ran in (absolute; "" when the event has none), session and tool names for
// the log, and the changed files.
type Event struct {
	Cwd     string
	Session string
	Tool    string
	Changes []sidecar.Change
}

// MaxEventSize bounds the hook event read from stdin (64 MiB): a Write of a
// file over the daemon's 16 MiB limit still decodes, and is skipped with a
// note later.
const MaxEventSize = 64 << 20

// decodeStrict decodes exactly one JSON value from r into v, refusing
// oversized input and trailing data.
func decodeStrict(r io.Reader, v any) error {
	data, err := io.ReadAll(io.LimitReader(r, MaxEventSize+1))
	if err != nil {
		return fmt.Errorf("reading stdin: %w", err)
	}
	if len(data) > MaxEventSize {
		return fmt.Errorf("event larger than %d MiB", MaxEventSize>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return errors.New("empty input: want one JSON object on stdin")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// Lookup returns the adapter for an agent name, or an error listing the
// known ones.
func Lookup(name string) (Adapter, error) {
	switch name {
	case "claude", "claude-code":
		return Claude{}, nil
	}
	return nil, fmt.Errorf("unknown agent %q (known: claude)", name)
}
