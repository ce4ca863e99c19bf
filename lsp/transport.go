package lsp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// DefaultWriteTimeout bounds one write to a server's stdin. A server that
// stops reading (hung, SIGSTOPped, busy) makes the write fail after this long
// instead of blocking the caller, and the server is then marked broken: a
// partial write has left the stream unframed.
const DefaultWriteTimeout = 3 * time.Second

// stdio joins a server's stdout (read) and stdin (write) into the
// io.ReadWriteCloser jsonrpc2 frames messages on. Every write carries a
// deadline (writeTimeout) so a stuck server can block only its own caller,
// and only for that long.
type stdio struct {
	r            *os.File // server's stdout
	w            *os.File // server's stdin
	writeTimeout time.Duration
	onWriteError func(error)
	closeOnce    sync.Once
}

func (s *stdio) Read(p []byte) (int, error) { return s.r.Read(p) }

func (s *stdio) Write(p []byte) (int, error) {
	if err := s.w.SetWriteDeadline(time.Now().Add(s.writeTimeout)); err != nil {
		return 0, fmt.Errorf("setting write deadline: %w", err)
	}
	n, err := s.w.Write(p)
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			err = fmt.Errorf("writing to server stdin: no progress for %v: %w", s.writeTimeout, err)
		}
		if s.onWriteError != nil {
			s.onWriteError(err)
		}
	}
	return n, err
}

func (s *stdio) Close() error {
	var err error
	s.closeOnce.Do(func() {
		err = errors.Join(s.w.Close(), s.r.Close())
	})
	return err
}

var _ io.ReadWriteCloser = (*stdio)(nil)

// reportingCodec is jsonrpc2.VSCodeObjectCodec (LSP 3.17 "Base Protocol":
// Content-Length framing) that reports a read failing on what the server
// wrote (bytes that are not a framed message, a body that is not JSON-RPC)
// to onReadError before jsonrpc2 closes the connection, which otherwise
// only logs it. The server is then broken for that reason, not for the
// exit status it dies with once its stdin is closed. The stream ending (EOF,
// our end closed) is not reported: the process's exit says why.
type reportingCodec struct {
	jsonrpc2.VSCodeObjectCodec
	onReadError func(error)
}

var _ jsonrpc2.ObjectCodec = reportingCodec{}

// ReadObject reads one framed message into v.
func (c reportingCodec) ReadObject(stream *bufio.Reader, v any) error {
	err := c.VSCodeObjectCodec.ReadObject(stream, v)
	if err != nil && c.onReadError != nil &&
		!errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, os.ErrClosed) {
		c.onReadError(fmt.Errorf("server wrote something other than an LSP message on stdout: %w", err))
	}
	return err
}

// tail keeps the last max bytes written to it: a server's stderr, kept for
// status and the log without letting a flood grow memory.
type tail struct {
	mu  sync.Mutex // guards buf
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String returns the kept bytes.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
