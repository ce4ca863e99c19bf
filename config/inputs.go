package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// maxInputRead bounds how much of one input fingerprint reads: a config
// file is a few KiB; one past this is summed by its size and modification
// time instead.
const maxInputRead = 1 << 20

// inputs returns the config files Load reads for the workspace at root,
// in a fixed order, each whether it exists or not: the user file
// (UserFile), every name a workspace config file may have (FileNames:
// creating one is a change too), and the files whose servers Load imports
// (ImportFiles). A path that cannot be determined (no home directory) is
// left out. What of them applies is the trust store's say too (Stamp).
func inputs(root string) []string {
	var out []string
	if f := UserFile(); f != "" {
		out = append(out, f)
	}
	for _, n := range FileNames {
		out = append(out, filepath.Join(root, n))
	}
	for _, n := range ImportFiles {
		out = append(out, filepath.Join(root, n))
	}
	return out
}

// Stamp sums up the config Load would read for the workspace at root now:
// the fingerprint of its inputs, and the trust store's entries for the
// workspace and for each of them (TrustFile; an entry of another
// workspace changes nothing here). Equal stamps mean Load reads the same
// config; a daemon compares the one it took before it loaded its config
// with the one of now to tell that its config changed
// (wire.HelloResult.ConfigChanged). An unreadable trust store counts as
// empty, as Load takes it.
func Stamp(root string) string {
	files := inputs(root)
	st, err := readTrust()
	if err != nil {
		st = trustState{}
	}
	h := sha256.New()
	io.WriteString(h, fingerprint(files))
	fmt.Fprintf(h, "\x00%s\x00", st[workspaceKey(root)])
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00", st[f])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// fingerprint sums up what files hold: the hex SHA-256 of each path, in
// order, with its content, or with "absent" when it does not exist, with
// its size and modification time (nanoseconds) when it is larger than 1
// MiB, or with the error that kept it from being read.
func fingerprint(files []string) string {
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00", f)
		sumInput(h, f)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sumInput writes the state of the file at path to w, as fingerprint
// says.
func sumInput(w io.Writer, path string) {
	file, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		io.WriteString(w, "absent")
		return
	}
	if err != nil {
		fmt.Fprintf(w, "error %v", err)
		return
	}
	defer file.Close()
	if fi, err := file.Stat(); err == nil && fi.Size() > maxInputRead {
		fmt.Fprintf(w, "size %d mtime %d", fi.Size(), fi.ModTime().UnixNano())
		return
	}
	if _, err := io.Copy(w, io.LimitReader(file, maxInputRead)); err != nil {
		fmt.Fprintf(w, "error %v", err)
	}
}
