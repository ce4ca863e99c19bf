package lsp

import (
	"testing"
)

// TestJudge is the freshness rule's table: each race agents produce, as the
// versions the client sent (with their texts) and what the server answered.
func TestJudge(t *testing.T) {
	const a, b = 0xA, 0xB // text hashes
	ver := func(v int32) *int32 { return &v }
	// sent builds a history: version i+1 has texts[i] and was sent when the
	// store's arrival number was marks[i].
	sent := func(texts []uint64, marks []uint64) []sentVersion {
		out := make([]sentVersion, len(texts))
		for i := range texts {
			out[i] = sentVersion{version: int32(i + 1), hash: texts[i], mark: marks[i]}
		}
		return out
	}
	push := func(seq uint64, v *int32) publication { return publication{seq: seq, version: v} }
	// forced marks version i+1 of s as a forced re-check.
	forced := func(s []sentVersion, i int) []sentVersion { s[i].forced = true; return s }
	tests := []struct {
		name      string
		sent      []sentVersion
		v         int32
		pushes    []publication
		pulls     []pullReport
		pulling   bool
		versioned bool
		want      docState
		wantPush  uint64 // seq of the push taken; 0 none
		wantPulls int
	}{
		{name: "nothing yet", sent: sent([]uint64{a}, []uint64{5}), v: 1, versioned: true, want: docWaiting},
		{name: "push for the version", sent: sent([]uint64{a}, []uint64{5}), v: 1,
			pushes: []publication{push(6, ver(1))}, versioned: true, want: docFresh, wantPush: 6},
		{name: "push from before the version was sent", sent: sent([]uint64{b, a}, []uint64{1, 5}), v: 2,
			pushes: []publication{push(3, ver(1))}, versioned: true, want: docWaiting},
		{name: "watcher sent the same text first: its answer counts", sent: sent([]uint64{b, a, a}, []uint64{1, 5, 9}), v: 3,
			pushes: []publication{push(4, ver(1)), push(7, ver(2))}, versioned: true, want: docFresh, wantPush: 7},
		{name: "same text, answer for the hook's own version", sent: sent([]uint64{a, a}, []uint64{5, 9}), v: 2,
			pushes: []publication{push(7, ver(1)), push(10, ver(2))}, versioned: true, want: docFresh, wantPush: 10},
		{name: "older check never takes a newer text's answer", sent: sent([]uint64{a, b}, []uint64{5, 6}), v: 1,
			pushes: []publication{push(8, ver(2))}, versioned: true, want: docSuperseded},
		{name: "older check overtaken after its own answer came", sent: sent([]uint64{a, b}, []uint64{5, 6}), v: 1,
			pushes: []publication{push(7, ver(1)), push(8, ver(2))}, versioned: true, want: docSuperseded},
		{name: "older check overtaken before its answer came: the answer does not revive it", sent: sent([]uint64{a, b}, []uint64{5, 6}), v: 1,
			pushes: []publication{push(4, ver(1)), push(7, ver(1))}, versioned: true, want: docSuperseded},
		{name: "older check overtaken, pulls answered: superseded", sent: sent([]uint64{a, b}, []uint64{5, 6}), v: 1,
			pulls: []pullReport{{seq: 7, version: 1}}, want: docSuperseded},
		{name: "A, B, A: the first A's answer stands while A is the newest text", sent: sent([]uint64{a, b, a}, []uint64{2, 5, 6}), v: 1,
			pushes: []publication{push(3, ver(1))}, versioned: true, want: docFresh, wantPush: 3},
		{name: "newer check never takes the older text's answer", sent: sent([]uint64{a, b}, []uint64{5, 6}), v: 2,
			pushes: []publication{push(7, ver(1))}, versioned: true, want: docWaiting},
		{name: "a later version with the same text extends the run", sent: sent([]uint64{a, a}, []uint64{5, 6}), v: 1,
			pushes: []publication{push(8, ver(2))}, versioned: true, want: docFresh, wantPush: 8},
		{name: "A, B, A: the first A's answer is not the third's", sent: sent([]uint64{a, b, a}, []uint64{2, 5, 6}), v: 3,
			pushes: []publication{push(3, ver(1))}, versioned: true, want: docWaiting},
		{name: "document closed or re-opened", sent: nil, v: 2, versioned: true, want: docSuperseded},
		{name: "a forced version's answer counts for an earlier one of the same text", sent: forced(sent([]uint64{a, a}, []uint64{5, 8}), 1), v: 1,
			pushes: []publication{push(9, ver(2))}, versioned: true, want: docFresh, wantPush: 9},
		{name: "an earlier version's answer does not count for a forced one", sent: forced(sent([]uint64{a, a}, []uint64{5, 8}), 1), v: 2,
			pushes: []publication{push(7, ver(1))}, versioned: true, want: docWaiting},
		{name: "unversioned push left over once the server versions", sent: sent([]uint64{a}, []uint64{5}), v: 1,
			pushes: []publication{push(6, nil)}, versioned: true, want: docWaiting},
		{name: "unversioned server: push after the run began", sent: sent([]uint64{a}, []uint64{5}), v: 1,
			pushes: []publication{push(6, nil)}, want: docFresh, wantPush: 6},
		{name: "unversioned server: push after another text was sent", sent: sent([]uint64{a, b}, []uint64{5, 7}), v: 1,
			pushes: []publication{push(8, nil)}, want: docSuperseded},
		{name: "pull for the version", sent: sent([]uint64{a}, []uint64{5}), v: 1,
			pulls: []pullReport{{seq: 6, version: 1}}, want: docFresh, wantPulls: 1},
		{name: "pull still in flight", sent: sent([]uint64{a}, []uint64{5}), v: 1,
			pulls: []pullReport{{seq: 6, version: 1}}, pulling: true, want: docWaiting},
		{name: "pull for a newer text", sent: sent([]uint64{a, b}, []uint64{5, 6}), v: 1,
			pulls: []pullReport{{seq: 8, version: 2}}, want: docSuperseded},
		{name: "pull answered for the watcher's version of the same text", sent: sent([]uint64{a, a}, []uint64{5, 9}), v: 2,
			pulls: []pullReport{{seq: 7, version: 1}}, want: docFresh, wantPulls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := judge(tt.sent, tt.v, tt.pushes, tt.pulls, tt.pulling, tt.versioned)
			if got.state != tt.want {
				t.Fatalf("state = %v, want %v", got.state, tt.want)
			}
			var seq uint64
			if got.push != nil {
				seq = got.push.seq
			}
			if seq != tt.wantPush || len(got.pulls) != tt.wantPulls {
				t.Errorf("answer = push %d and %d pulls, want push %d and %d pulls", seq, len(got.pulls), tt.wantPush, tt.wantPulls)
			}
		})
	}
}

// storeFresh reports whether the store holds an answer for version v of
// uri sent at mark, by the rule a check applies (store.answers, judge).
func storeFresh(s *store, uri string, mark uint64, v int32) bool {
	pushes, pulls, pulling, versioned := s.answers(uri)
	sent := []sentVersion{{version: v, hash: 1, mark: mark}}
	return judge(sent, v, pushes, pulls, pulling, versioned).state == docFresh
}

// TestWaitPhase: a check's wait is complete only when every changed
// document is answered or overtaken and nothing it set off is still
// running; then it settles.
func TestWaitPhase(t *testing.T) {
	tests := []struct {
		name                               string
		n, fresh, superseded               int
		pending, othersPulling, othersOpen bool
		want                               phase
	}{
		{"nothing answered yet", 2, 0, 0, false, false, false, phaseUnanswered},
		{"one of two answered", 2, 1, 0, false, false, false, phaseUnanswered},
		{"answered and overtaken: nothing more to wait for", 2, 1, 1, false, false, false, phaseSettling},
		{"all overtaken (a newer check reports them)", 1, 0, 1, false, false, false, phaseSettling},
		{"answered, cargo check still running", 1, 1, 0, true, false, false, phaseWorking},
		{"answered, other documents' pulls running (pyright)", 1, 1, 0, false, true, false, phaseWorking},
		{"answered, tsserver's other files to come", 1, 1, 0, false, false, true, phaseWorking},
		{"answered while work runs but another lost its answer", 2, 1, 0, true, true, true, phaseUnanswered},
		{"all in", 3, 3, 0, false, false, false, phaseSettling},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := waitPhase(tt.n, tt.fresh, tt.superseded, tt.pending, tt.othersPulling, tt.othersOpen); got != tt.want {
				t.Errorf("waitPhase = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestChangedSince is forceOutdatedRuns's question — did the server's
// view change after a document's run of equal texts began? — asked in
// the order of sends (seq), not of the store's arrivals (mark): the
// watcher re-synced the caller (seq 5) and the callee's check sent the
// callee (seq 6) before any answer arrived, so both went out at mark 3;
// the caller's answer may predate the callee's change.
func TestChangedSince(t *testing.T) {
	const caller, callee = "file:///w/main.go", "file:///w/greet.go"
	tests := []struct {
		name    string
		other   []sentVersion
		watched map[string]sentWatch
		seq     uint64 // the caller's run began with this send
		want    bool
	}{
		{"another text sent after, no arrival between", []sentVersion{{version: 2, mark: 3, seq: 6, changes: true}}, nil, 5, true},
		{"another text sent before", []sentVersion{{version: 2, mark: 3, seq: 4, changes: true}}, nil, 5, false},
		{"the same text again after (a forced re-check)", []sentVersion{{version: 2, mark: 3, seq: 6, changes: false}}, nil, 5, false},
		{"a watched-file event after, at the same mark", nil, map[string]sentWatch{"file:///w/go.mod": {mark: 3, seq: 6}}, 5, true},
		{"a watched-file event before", nil, map[string]sentWatch{"file:///w/go.mod": {mark: 3, seq: 4}}, 5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Client{docs: map[string]*document{
				caller: {sent: []sentVersion{{version: 1, mark: 3, seq: 5, changes: true}}},
				callee: {sent: tt.other},
			}, watched: tt.watched}
			if got := c.changedSinceLocked(caller, tt.seq); got != tt.want {
				t.Errorf("changedSinceLocked = %v, want %v", got, tt.want)
			}
		})
	}
}
