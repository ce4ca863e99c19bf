package membudget

import (
	"slices"
	"testing"
	"time"
)

const mib = 1 << 20

// TestChoose: the least recently used idle servers across all daemons
// stop until the total fits; busy, recently used and unmeasured servers
// stay; every daemon reading the same records makes the same choice.
func TestChoose(t *testing.T) {
	now := time.Date(2026, 1, 2, 15, 0, 0, 0, time.UTC)
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	srv := func(name, root string, rss int64, lastUse time.Time, busy bool) Server {
		return Server{Name: name, Root: root, Pid: 1, RSS: rss * mib, LastUse: lastUse, Busy: busy}
	}
	daemon := func(pid int, rss int64, servers ...Server) Record {
		return Record{Pid: pid, RSS: rss * mib, Servers: servers}
	}
	ten := []Record{}
	for i := range 10 { // ten worktrees: 20 MiB daemons, 160 MiB gopls, used a minute apart
		ten = append(ten, daemon(100+i, 20, srv("gopls", "/w"+string(rune('0'+i)), 160, ago(time.Duration(10-i)*time.Minute), false)))
	}
	for _, tc := range []struct {
		name    string
		records []Record
		budget  int64 // MiB
		minIdle time.Duration
		want    []Key
		total   int64 // MiB
	}{
		{"no budget", ten, 0, 0, nil, 1800},
		{"under budget", ten, 1800, 0, nil, 1800},
		{"ten worktrees into 600 MiB: the eight oldest stop (1800 - 8×160 = 520)",
			ten, 600, 0, []Key{{100, "gopls", "/w0"}, {101, "gopls", "/w1"}, {102, "gopls", "/w2"}, {103, "gopls", "/w3"},
				{104, "gopls", "/w4"}, {105, "gopls", "/w5"}, {106, "gopls", "/w6"}, {107, "gopls", "/w7"}}, 1800},
		{"just over: one stops",
			ten, 1799, 0, []Key{{100, "gopls", "/w0"}}, 1800},
		{"recently used servers are not idle yet",
			ten, 600, 5*time.Minute + time.Second, []Key{{100, "gopls", "/w0"}, {101, "gopls", "/w1"},
				{102, "gopls", "/w2"}, {103, "gopls", "/w3"}, {104, "gopls", "/w4"}}, 1800},
		{"busy and unmeasured servers stay; the rest go, oldest first",
			[]Record{
				daemon(1, 10, srv("gopls", "/a", 300, ago(time.Hour), true), srv("pyright", "/a", 100, ago(40*time.Minute), false)),
				daemon(2, 10, srv("gopls", "/b", -1, ago(2*time.Hour), false), srv("clangd", "/b", 50, ago(50*time.Minute), false)),
			}, 100, 0, []Key{{2, "clangd", "/b"}, {1, "pyright", "/a"}}, 470},
		{"ties by daemon pid, then name, then root",
			[]Record{
				daemon(7, 0, srv("gopls", "/x", 100, ago(time.Hour), false), srv("clangd", "/x", 100, ago(time.Hour), false)),
				daemon(3, 0, srv("gopls", "/z", 100, ago(time.Hour), false), srv("gopls", "/y", 100, ago(time.Hour), false)),
			}, 150, 0, []Key{{3, "gopls", "/y"}, {3, "gopls", "/z"}, {7, "clangd", "/x"}}, 400},
		{"daemons alone over budget: every idle server stops",
			[]Record{daemon(1, 500, srv("gopls", "/a", 100, ago(time.Hour), false)), daemon(2, 500)},
			200, 0, []Key{{1, "gopls", "/a"}}, 1100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Choose(tc.records, tc.budget*mib, tc.minIdle, now)
			var got []Key
			for _, v := range p.Stop {
				got = append(got, v.Key)
			}
			if !slices.Equal(got, tc.want) || p.Total != tc.total*mib {
				t.Errorf("Choose = total %d MiB, stop %v; want total %d MiB, stop %v", p.Total/mib, got, tc.total, tc.want)
			}
			// Another daemon reads the same records in another order.
			rev := slices.Clone(tc.records)
			slices.Reverse(rev)
			if q := Choose(rev, tc.budget*mib, tc.minIdle, now); !slices.Equal(q.Stop, p.Stop) {
				t.Errorf("Choose of the records reversed = %v, want the same choice %v", q.Stop, p.Stop)
			}
		})
	}
}
