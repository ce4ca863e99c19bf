package membudget

import (
	"cmp"
	"slices"
	"time"
)

// Key names one server of one daemon.
type Key struct {
	Daemon int    // the daemon's pid
	Name   string // the server's name, "gopls"
	Root   string // the root it serves
}

// Plan is Choose's answer: the total held now, and the servers to stop,
// least recently used first, with what stopping them frees (bytes).
type Plan struct {
	Total int64
	Stop  []Victim
}

// Victim is one server Plan stops: its key, the last use the choice was
// made on (its daemon stops it only if no check used it since), and its
// RSS in bytes.
type Victim struct {
	Key
	LastUse time.Time
	RSS     int64
}

// Total is what the records hold together, in bytes: every daemon's own
// RSS and every measured server tree's.
func Total(records []Record) int64 {
	var sum int64
	for _, r := range records {
		sum += max(r.RSS, 0)
		for _, s := range r.Servers {
			sum += max(s.RSS, 0)
		}
	}
	return sum
}

// Choose plans what brings the records' total within budget (bytes; 0 or
// less: no budget, nothing stops). Only idle servers are stopped: no check
// in flight, none begun or ended for minIdle (so a server between two
// edits of a working session is not stopped and started again at once),
// and a measured RSS. Among them the least recently used go first — ties
// by daemon pid, name, root, so every daemon that reads the same records
// makes the same choice — until the total less what they free fits. When
// even stopping every idle server does not fit, all of them stop.
func Choose(records []Record, budget int64, minIdle time.Duration, now time.Time) Plan {
	p := Plan{Total: Total(records)}
	if budget <= 0 || p.Total <= budget {
		return p
	}
	var idle []Victim
	for _, r := range records {
		for _, s := range r.Servers {
			if !s.Busy && s.RSS > 0 && now.Sub(s.LastUse) >= minIdle {
				idle = append(idle, Victim{Key{r.Pid, s.Name, s.Root}, s.LastUse, s.RSS})
			}
		}
	}
	slices.SortFunc(idle, func(a, b Victim) int {
		return cmp.Or(a.LastUse.Compare(b.LastUse), cmp.Compare(a.Daemon, b.Daemon),
			cmp.Compare(a.Name, b.Name), cmp.Compare(a.Root, b.Root))
	})
	left := p.Total
	for _, v := range idle {
		if left <= budget {
			break
		}
		p.Stop = append(p.Stop, v)
		left -= v.RSS
	}
	return p
}

// sortRecords orders records by pid.
func sortRecords(rs []Record) {
	slices.SortFunc(rs, func(a, b Record) int { return cmp.Compare(a.Pid, b.Pid) })
}
