package membudget

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestReadAll: a live daemon's fresh record is read; a dead daemon's, a
// stale one, a garbled one, one under another pid's name and an old
// temporary file are left out and removed; a fresh temporary file (a
// write in progress) stays.
func TestReadAll(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	self := os.Getpid()
	live := Record{Pid: self, Root: "/w", Written: now, RSS: 5, Servers: []Server{{Name: "gopls", Root: "/w", Pid: 9, RSS: 7, LastUse: now}}}
	for _, r := range []Record{live, {Pid: dead.Process.Pid, Written: now}} {
		if err := Write(dir, r); err != nil {
			t.Fatal(err)
		}
	}
	stale := filepath.Join(t.TempDir(), "stale")
	if err := Write(filepath.Dir(stale), Record{Pid: os.Getppid(), Written: now.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	os.Rename(Path(filepath.Dir(stale), os.Getppid()), Path(dir, os.Getppid()))
	os.WriteFile(filepath.Join(dir, "12.json"), []byte("{not json"), 0o600)
	os.WriteFile(filepath.Join(dir, "13.json"), []byte(`{"pid": 14}`), 0o600)
	oldTmp, freshTmp := filepath.Join(dir, ".tmp-1-old"), filepath.Join(dir, ".tmp-1-new")
	os.WriteFile(oldTmp, nil, 0o600)
	os.Chtimes(oldTmp, now.Add(-time.Hour), now.Add(-time.Hour))
	os.WriteFile(freshTmp, nil, 0o600)

	got, err := ReadAll(dir, now, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Pid != self || got[0].Servers[0].RSS != 7 || Total(got) != 12 {
		t.Errorf("ReadAll = %+v, want only this process's record (total 12)", got)
	}
	left, _ := os.ReadDir(dir)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	want := []string{".tmp-1-new", filepath.Base(Path(dir, self))}
	if len(names) != len(want) || names[0] != want[0] || names[1] != want[1] {
		t.Errorf("files left = %v, want %v", names, want)
	}
	if err := Remove(dir, self); err != nil {
		t.Fatal(err)
	}
	if err := Remove(dir, self); err != nil {
		t.Errorf("removing a record already gone: %v", err)
	}
	if rs, err := ReadAll(filepath.Join(dir, "none"), now, time.Minute); err != nil || rs != nil {
		t.Errorf("ReadAll of a missing dir = %v, %v; want nothing", rs, err)
	}
}
