package sidecar

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/lsp-hook/lsp-hook/lsp"
)

// WriteStatus prints st as `lsp-hook status` shows it: a daemon line, its
// root, log and process (goroutines, open fds, RSS, heap) lines, the
// memory budget's line, the file watcher's line (complete, or partial with
// what is scanned), then a table of servers (name, state, pid, process
// tree RSS, root, last error; servers never used that are disabled or not
// installed are one line each; a crashed one's crash count and when it
// starts again, one line each; one line each for the servers the memory
// budget stopped), a table of
// compiler-mode linters that have run, then the last stderr lines of each
// broken server, then counters.
func WriteStatus(w io.Writer, st StatusResult) error {
	fmt.Fprintf(w, "daemon  pid %d  version %s  up %s\nroot    %s\n", st.Pid, st.Version,
		(time.Duration(st.UptimeS) * time.Second).String(), st.Root)
	if st.Socket != "" {
		fmt.Fprintf(w, "socket  %s\n", st.Socket)
	}
	if st.LogFile != "" {
		fmt.Fprintf(w, "log     %s\n", st.LogFile)
	}
	if st.LogError != "" {
		fmt.Fprintf(w, "log     NOT WRITTEN: %s\n", st.LogError)
	}
	if p := st.Process; p != nil {
		fmt.Fprintf(w, "process %d goroutines  %d open fds  rss %s  heap %s\n", p.Goroutines, p.OpenFDs, kib(p.RSSKiB), kib(p.HeapKiB))
	}
	if st.Memory != nil {
		fmt.Fprintln(w, memoryLine(st.Memory))
	}
	if st.Watcher != nil {
		fmt.Fprintln(w, st.Watcher.Note())
	}
	if st.ConfigChanged {
		fmt.Fprintln(w, "config  changed since the daemon started: the next hook replaces this daemon with one that loads it")
	}
	if len(st.Untrusted) > 0 {
		fmt.Fprintf(w, "untrusted: %s (run `lsp-hook trust` to allow them)\n", strings.Join(st.Untrusted, ", "))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tSTATE\tPID\tRSS\tROOT\tLAST ERROR")
	var disabled, missing []string // never used: one line each, not a row each
	for _, s := range st.Servers {
		if s.Root == "" && s.Pid == 0 && (s.State == lsp.StateDisabled || s.State == lsp.StateUnavailable) {
			if s.State == lsp.StateDisabled {
				disabled = append(disabled, s.Name)
			} else {
				missing = append(missing, s.Name)
			}
			continue
		}
		pid := "-"
		if s.Pid != 0 {
			pid = fmt.Sprint(s.Pid)
		}
		root := s.Root
		if root == "" {
			root = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Name, s.State, pid, serverRSS(st.Memory, s.Name, s.Root), root, s.LastError)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(missing) > 0 {
		fmt.Fprintf(w, "not installed: %s (lsp-hook servers list)\n", strings.Join(missing, ", "))
	}
	if len(disabled) > 0 {
		fmt.Fprintf(w, "disabled: %s\n", strings.Join(disabled, ", "))
	}
	for _, s := range st.Servers {
		if s.State == lsp.StateBroken && s.Crashes > 0 {
			fmt.Fprintln(w, crashLine(s))
		}
	}
	if st.Memory != nil {
		for _, s := range st.Memory.Stopped {
			fmt.Fprintln(w, stoppedLine(s))
		}
	}
	for _, s := range st.Servers {
		if s.Companion != nil {
			fmt.Fprintln(w, companionLine(s))
		}
	}
	for _, s := range st.Servers {
		if len(s.WarningsOff) > 0 {
			fmt.Fprintln(w, warningsOffLine(s))
		}
		if s.VirtualEnv != "" {
			fmt.Fprintf(w, "%s (%s) resolves imports against the packages of %s\n", s.Name, s.Root, s.VirtualEnv)
		}
	}
	if len(st.Sessions) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "SESSION\tAGENT\tFILES\tOPEN ERRORS\tLAST SEEN")
		for _, se := range st.Sessions {
			open := "-"
			if se.OpenErrors >= 0 {
				open = fmt.Sprint(se.OpenErrors)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", se.ID, se.Agent, se.Files, open, se.LastSeen.Local().Format(time.TimeOnly))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(st.Linters) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "LINTER\tSTATE\tRUNS\tFAILURES\tLAST MS\tLAST ERROR")
		for _, l := range st.Linters {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\n", l.Name, l.State, l.Runs, l.Failures, l.LastMS, l.LastError)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	for _, s := range st.Servers {
		if len(s.Stderr) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s stderr (last %d lines):\n", s.Name, len(s.Stderr))
		for _, l := range s.Stderr {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if len(st.Counters) > 0 {
		fmt.Fprintln(w)
		for _, k := range sortedCounterKeys(st.Counters) {
			fmt.Fprintf(w, "%-14s %d\n", k, st.Counters[k])
		}
	}
	return nil
}

// crashLine says how often a broken server crashed (within lsp's crash
// window) and what brings it back: "crashed: gopls (2 crashes); the next
// change after 15:04:05 starts it again".
func crashLine(s ServerStatus) string {
	n := "1 crash"
	if s.Crashes != 1 {
		n = fmt.Sprintf("%d crashes", s.Crashes)
	}
	if s.RestartAt.IsZero() {
		return fmt.Sprintf("crashed: %s (%s); only `lsp-hook restart %s` starts it again", s.Name, n, s.Name)
	}
	return fmt.Sprintf("crashed: %s (%s); the next change after %s starts it again", s.Name, n,
		s.RestartAt.Local().Format(time.TimeOnly))
}

// companionLine says how a server's companion watch command runs:
// "luau-lsp watch: rojo sourcemap … (pid 4242; started again 2 times, last: exit status 1)".
func companionLine(s ServerStatus) string {
	c := s.Companion
	state := "between restarts"
	if c.Pid != 0 {
		state = fmt.Sprintf("pid %d", c.Pid)
	}
	if c.Restarts > 0 {
		state += fmt.Sprintf("; started again %d times, last: %s", c.Restarts, c.LastExit)
	}
	return fmt.Sprintf("%s watch: %s (%s)", s.Name, strings.Join(c.Command, " "), state)
}

// kib formats a size given in KiB for people: "812 KiB", "21.4 MiB".
func kib(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d KiB", n)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/1024)
}

func sortedCounterKeys(m map[string]int64) []string { return slices.Sorted(maps.Keys(m)) }

// WriteRestart prints what `lsp-hook restart` did: one line per server
// restarted, with the state it was in and, for a broken one, why.
func WriteRestart(w io.Writer, res RestartResult) error {
	if len(res.Restarted) == 0 {
		_, err := fmt.Fprintln(w, "no language server running or failed; nothing to restart")
		return err
	}
	for _, s := range res.Restarted {
		line := fmt.Sprintf("restarted %s for %s (was %s", s.Name, s.Root, s.State)
		if s.LastError != "" {
			line += ": " + s.LastError
		}
		if _, err := fmt.Fprintln(w, line+"); it starts again on the next change"); err != nil {
			return err
		}
	}
	return nil
}

// warningsOffLine says that a server runs without its warnings-only part,
// and what restarts it whole.
func warningsOffLine(s lsp.ServerStatus) string {
	return fmt.Sprintf("%s runs with %s: that part only warns, below the severity shown; %s near a checked file, or a check asking for warnings, restarts it whole",
		s.Name, strings.Join(s.WarningsOff, " "), strings.Join(s.WarningsConfig, " or "))
}
