package sidecar

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/membudget"
)

// memoryLine is status's line for the budget: "memory  budget 2.0 GiB,
// all 3 daemons held 1.3 GiB at 15:04:05 (this one 21 MiB; lsp-hook status
// --all)" ("no budget" for the budget). The figures are the last round's
// (every BudgetEvery), so the line says when that was: a server started
// since is not in them yet. Before the first round: "memory  budget 2.0
// GiB, not measured yet".
func memoryLine(m *MemoryStatus) string {
	budget := "no budget"
	if m.Budget > 0 {
		budget = "budget " + config.FormatSize(m.Budget)
	}
	if m.At.IsZero() {
		return fmt.Sprintf("memory  %s, not measured yet", budget)
	}
	daemons := fmt.Sprintf("all %d daemons", m.Daemons)
	if m.Daemons == 1 {
		daemons = "the 1 daemon"
	}
	return fmt.Sprintf("memory  %s, %s held %s at %s (this one %s; lsp-hook status --all)",
		budget, daemons, config.FormatSize(m.Total), m.At.Local().Format(time.TimeOnly), config.FormatSize(m.RSS))
}

// stoppedLine says which server the budget stopped and why: "stopped for
// the memory budget at 15:04:05: gopls for /w (166 MiB; all daemons held
// 1.9 GiB of 1.5 GiB); it starts again on its next change".
func stoppedLine(s membudget.Stopped) string {
	return fmt.Sprintf("stopped for the memory budget at %s: %s for %s (%s; all daemons held %s of %s); it starts again on its next change",
		s.At.Local().Format(time.TimeOnly), s.Name, s.Root, config.FormatSize(s.RSS), config.FormatSize(s.Total), config.FormatSize(s.Budget))
}

// serverRSS returns the RSS column of the server (name, root) from m:
// "166 MiB", "not measured", or "-" when m does not list it.
func serverRSS(m *MemoryStatus, name, root string) string {
	if m == nil {
		return "-"
	}
	for _, s := range m.Servers {
		if s.Name == name && s.Root == root {
			return rssText(s.RSS)
		}
	}
	return "-"
}

// rssText renders an RSS in bytes; a negative one was not measured.
func rssText(n int64) string {
	if n < 0 {
		return "not measured"
	}
	return config.FormatSize(n)
}

// AllStatus is `lsp-hook status --all`: every daemon of this user (their
// records, membudget.ReadAll), the total they hold and the budget, in
// bytes (0: none, as the first daemon's record says).
type AllStatus struct {
	Budget  int64              `json:"budget"`
	Total   int64              `json:"total"`
	Records string             `json:"records"`
	Daemons []membudget.Record `json:"daemons"`
}

// ReadAllStatus reads the records of every daemon of this user from dir
// (wire.RecordsDir), leaving out (and removing) dead daemons' records.
func ReadAllStatus(dir string, now time.Time) (AllStatus, error) {
	rs, err := membudget.ReadAll(dir, now, BudgetStale)
	st := AllStatus{Total: membudget.Total(rs), Records: dir, Daemons: rs}
	if st.Daemons == nil {
		st.Daemons = []membudget.Record{}
	}
	for _, r := range rs {
		st.Budget = max(st.Budget, r.Budget)
	}
	return st, err
}

// WriteAllStatus prints st as `lsp-hook status --all` shows it: the total
// against the budget, then one row per daemon (its own RSS) and per
// server (its process tree's RSS, when a check last used it), then what
// the budget stopped.
func WriteAllStatus(w io.Writer, st AllStatus) error {
	budget := "no budget"
	if st.Budget > 0 {
		budget = "budget " + config.FormatSize(st.Budget)
	}
	fmt.Fprintf(w, "%d daemons hold %s; %s\n", len(st.Daemons), config.FormatSize(st.Total), budget)
	if len(st.Daemons) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DAEMON\tSERVER\tPID\tRSS\tLAST USED\tROOT")
	for _, r := range st.Daemons {
		fmt.Fprintf(tw, "%d\t(daemon)\t%d\t%s\t%s\t%s\n", r.Pid, r.Pid, rssText(r.RSS), "-", r.Root)
		for _, s := range r.Servers {
			used := s.LastUse.Local().Format(time.TimeOnly)
			if s.Busy {
				used = "checking"
			}
			fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\t%s\n", r.Pid, s.Name, s.Pid, rssText(s.RSS), used, s.Root)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var stopped []string
	for _, r := range st.Daemons {
		for _, s := range r.Stopped {
			stopped = append(stopped, fmt.Sprintf("daemon %d %s", r.Pid, stoppedLine(s)))
		}
	}
	if len(stopped) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, strings.Join(stopped, "\n"))
	}
	return nil
}
