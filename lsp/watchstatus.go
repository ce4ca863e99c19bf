package lsp

import (
	"fmt"
	"time"
)

// This file is what status says of a Watcher: how much of the tree it
// watches, with which backend, and how long its scan takes over the rest.

// WatcherStatus is what `lsp-hook status` says of a workspace's Watcher.
// Counts are of directories and of files (entries that are not
// directories); Cost and Budget are in the backend's unit (WatchPolicy).
type WatcherStatus struct {
	Backend      string `json:"backend"`
	Complete     bool   `json:"complete"`
	WatchedDirs  int    `json:"watched_dirs"`
	WatchedFiles int    `json:"watched_files"`
	ScannedDirs  int    `json:"scanned_dirs,omitempty"`
	ScannedFiles int    `json:"scanned_files,omitempty"`
	Cost         int    `json:"cost"`
	Budget       int    `json:"budget"`
	// ScanRoundMS is about how long, in milliseconds, a change in a
	// scanned directory may wait to be seen: passes per round × the pause
	// between passes.
	ScanRoundMS int64 `json:"scan_round_ms,omitempty"`
	// ScanPassMS is how long the last scan pass took, in milliseconds.
	ScanPassMS float64 `json:"scan_pass_ms,omitempty"`
	// Lost: the kernel reported lost events (inotify queue overflow).
	Lost bool `json:"lost,omitempty"`
}

// Note is the status line: "watcher: complete (inotify, 212 directories)",
// or "watcher: partial (kqueue, 4,000 of 52,000 files); scanning the rest
// every 11 s".
func (s WatcherStatus) Note() string {
	if s.ScannedDirs == 0 {
		note := fmt.Sprintf("watcher: complete (%s, %s directories, %s files)", s.Backend, thousands(s.WatchedDirs), thousands(s.WatchedFiles))
		if s.Lost {
			note += "; the kernel dropped events once"
		}
		return note
	}
	round := time.Duration(s.ScanRoundMS) * time.Millisecond
	if round >= time.Second {
		round = round.Round(100 * time.Millisecond)
	}
	return fmt.Sprintf("watcher: partial (%s, %s of %s files); scanning the rest every %s",
		s.Backend, thousands(s.WatchedFiles), thousands(s.WatchedFiles+s.ScannedFiles), round)
}

// Status describes the Watcher now.
func (w *Watcher) Status() WatcherStatus {
	dirs, files, round, pass := w.scan.status(w.policy)
	w.mu.Lock()
	defer w.mu.Unlock()
	st := WatcherStatus{Backend: w.policy.Backend, Complete: !w.capped && !w.lost, WatchedDirs: len(w.dirs),
		ScannedDirs: dirs, ScannedFiles: files, Cost: w.spent, Budget: w.policy.Budget, Lost: w.lost,
		ScanRoundMS: round.Milliseconds(), ScanPassMS: float64(pass.Microseconds()) / 1000}
	for _, d := range w.dirs {
		st.WatchedFiles += d.files
	}
	return st
}

// thousands formats n with commas: 52000 → "52,000".
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
