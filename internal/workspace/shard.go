package workspace

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// shardOf returns the 1-based shard of n that the root-relative slash path
// rel belongs to: FNV-1a (32-bit) of rel, mod n, plus one. It depends on
// rel alone, so shards are disjoint, cover every file, and a file keeps its
// shard when others are added or removed.
func shardOf(rel string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(rel))
	return int(h.Sum32()%uint32(n)) + 1
}

// ParseShard parses a --shard value "K/N": shard K (1-based) of N, with
// 1 ≤ K ≤ N. Anything else ("x", "0/3", "4/3", "1/0") is an error naming
// the value and what is expected.
func ParseShard(s string) (k, n int, err error) {
	ks, ns, ok := strings.Cut(strings.TrimSpace(s), "/")
	if ok {
		k, err = strconv.Atoi(ks)
		if err == nil {
			n, err = strconv.Atoi(ns)
		}
	}
	if !ok || err != nil {
		return 0, 0, fmt.Errorf("parsing shard %q: want K/N, as in 2/5", s)
	}
	if err := checkShard(k, n); err != nil {
		return 0, 0, fmt.Errorf("parsing shard %q: %w", s, err)
	}
	return k, n, nil
}

// checkShard checks shard k of n: 1 ≤ k ≤ n.
func checkShard(k, n int) error {
	if n < 1 {
		return fmt.Errorf("the shard count N must be at least 1, not %d", n)
	}
	if k < 1 || k > n {
		return fmt.Errorf("the shard number K must be from 1 to %d, not %d", n, k)
	}
	return nil
}
