package lsp

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
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
