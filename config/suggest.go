package config

import "fmt"

// suggest returns `; did you mean "x"?` for the known word closest to got
// by edit distance, when it is close enough to be a likely typo, else "".
func suggest(got string, known []string) string {
	best, bestDist := "", len(got)/2+2
	for _, k := range known {
		if d := levenshtein(got, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// levenshtein is the edit distance between a and b, counted in bytes.
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
