package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"

	"github.com/sourcegraph/jsonrpc2"
)

// MaxMessageSize is the largest JSON-RPC message body the daemon reads, in
// bytes (a frame's Content-Length): 64 MiB. A change's content is at most
// MaxFileSize (16 MiB) of text, which JSON escaping can grow (a quote or a
// newline doubles, a control character or <, >, & becomes six bytes); the
// client never sends a request the daemon would refuse (see Client.Call).
// jsonrpc2.VSCodeObjectCodec, which this replaces on the daemon's side,
// accepts up to 4 GiB and reads header lines of any length.
const MaxMessageSize = 64 << 20

// ErrMessageTooLarge is returned by BoundedCodec.ReadObject for a frame
// whose Content-Length is over its limit; the connection is then closed.
var ErrMessageTooLarge = errors.New("message too large")

// maxHeaderLines is the most header lines one frame may carry; LSP defines
// two (Content-Length and Content-Type).
const maxHeaderLines = 16

// BoundedCodec is the LSP base protocol framing (LSP 3.17 "Base
// Protocol": "Content-Length: N\r\n", optional other headers, "\r\n", then
// N bytes of JSON) with limits, for the daemon's side of the socket:
//
//   - a body over Limit bytes (MaxMessageSize when 0) is refused before a
//     byte of it is read or allocated: ReadObject logs the size and the
//     limit and returns ErrMessageTooLarge, which makes jsonrpc2.Conn close
//     the connection (the peer sees it closed; there is no request ID to
//     answer, since the body that holds it is not read);
//   - a header line must fit the stream's read buffer (bufio's 4,096 bytes)
//     and a frame may have at most 16 header lines;
//   - the body is read exactly, so a body with trailing bytes after its
//     JSON value cannot shift the next frame.
//
// Writing is jsonrpc2.VSCodeObjectCodec's.
type BoundedCodec struct {
	Limit int64        // largest body in bytes; 0 means MaxMessageSize
	Log   *slog.Logger // where a refused frame is logged; nil: not logged
}

var _ jsonrpc2.ObjectCodec = BoundedCodec{}

// WriteObject writes obj as one Content-Length framed message.
func (BoundedCodec) WriteObject(stream io.Writer, obj any) error {
	return jsonrpc2.VSCodeObjectCodec{}.WriteObject(stream, obj)
}

// ReadObject reads one frame and decodes its body into v. Errors: a
// malformed or over-long header, a missing or invalid Content-Length,
// ErrMessageTooLarge, a short body, or the body's JSON error.
func (c BoundedCodec) ReadObject(stream *bufio.Reader, v any) error {
	n, err := c.readHeader(stream)
	if err != nil {
		return err
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(stream, body); err != nil {
		return fmt.Errorf("reading a %d-byte message body: %w", n, err)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("decoding a %d-byte message: %w", n, err)
	}
	return nil
}

// readHeader reads a frame's header lines and returns its Content-Length,
// checked against the limit.
func (c BoundedCodec) readHeader(stream *bufio.Reader) (int64, error) {
	length := int64(-1)
	for i := 0; ; i++ {
		if i == maxHeaderLines {
			return 0, fmt.Errorf("reading message header: more than %d header lines", maxHeaderLines)
		}
		line, err := stream.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return 0, fmt.Errorf("reading message header: a line longer than %d bytes", stream.Size())
		}
		if err != nil {
			if i == 0 && errors.Is(err, io.EOF) && len(line) == 0 {
				return 0, io.EOF // the peer closed between messages
			}
			return 0, fmt.Errorf("reading message header: %w", err)
		}
		line, ok := bytes.CutSuffix(line, []byte("\r\n"))
		if !ok {
			return 0, errors.New(`reading message header: line endings must be \r\n`)
		}
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, fmt.Errorf("reading message header: %q is not a header", line)
		}
		if !bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")) {
			continue // Content-Type: the body is UTF-8 JSON whatever it says
		}
		if length, err = strconv.ParseInt(string(bytes.TrimSpace(value)), 10, 64); err != nil || length <= 0 {
			return 0, fmt.Errorf("reading message header: invalid Content-Length %q", bytes.TrimSpace(value))
		}
	}
	if length < 0 {
		return 0, errors.New("reading message header: no Content-Length")
	}
	limit := c.Limit
	if limit <= 0 {
		limit = MaxMessageSize
	}
	if length > limit {
		if c.Log != nil {
			c.Log.Warn("refusing message over the size limit; closing the connection", "bytes", length, "limit_bytes", limit)
		}
		return 0, fmt.Errorf("%w: %d bytes, over the %d-byte limit", ErrMessageTooLarge, length, limit)
	}
	return length, nil
}
