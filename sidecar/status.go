package sidecar

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"
	"time"
)

// WriteStatus prints st as `lsp-hook status` shows it: a daemon line, then
// a table of servers (name, state, pid, root, last error), then counters.
func WriteStatus(w io.Writer, st StatusResult) error {
	fmt.Fprintf(w, "daemon  pid %d  version %s  up %s\nroot    %s\n", st.Pid, st.Version,
		(time.Duration(st.UptimeS) * time.Second).String(), st.Root)
	if st.LogFile != "" {
		fmt.Fprintf(w, "log     %s\n", st.LogFile)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tSTATE\tPID\tROOT\tLAST ERROR")
	for _, s := range st.Servers {
		pid := "-"
		if s.Pid != 0 {
			pid = fmt.Sprint(s.Pid)
		}
		root := s.Root
		if root == "" {
			root = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.Name, s.State, pid, root, s.LastError)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(st.Counters) > 0 {
		fmt.Fprintln(w)
		for _, k := range sortedCounterKeys(st.Counters) {
			fmt.Fprintf(w, "%-14s %d\n", k, st.Counters[k])
		}
	}
	return nil
}

func sortedCounterKeys(m map[string]int64) []string { return slices.Sorted(maps.Keys(m)) }
