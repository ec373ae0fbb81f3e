package model

// Features walks the detection view v once and reports its hashed features:
// every word (a run of letters, digits, apostrophes and non-ASCII bytes) and
// every pair of adjacent words. (Character 4-grams were measured beside them
// and lost recall at the same false-positive rate; see
// docs/decisions/injection-model.md.) Features belong to segments: segment 0
// starts at byte 0, and each word after the first starts a new segment,
// announced by segment(start) before its features.
// A hash's low bits pick the bucket, its top bit the sign.
func Features(v string, segment func(start int), feat func(h uint32)) {
	segment(0)
	var hw, prev uint32
	words := 0
	inWord := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if isWordByte(c) {
			if !inWord {
				if words > 0 {
					segment(i)
				}
				inWord, hw = true, fnvOffset
			}
			hw = (hw ^ uint32(c)) * fnvPrime
		} else if inWord {
			endWord(hw, prev, words > 0, feat)
			prev, inWord = hw, false
			words++
		}
	}
	if inWord {
		endWord(hw, prev, words > 0, feat)
	}
}

// endWord reports a finished word and, after the first, the pair it forms
// with the previous one.
func endWord(hw, prev uint32, pair bool, feat func(uint32)) {
	feat(fmix(hw ^ seedWord))
	if pair {
		feat(fmix(prev*fnvPrime ^ hw ^ seedPair))
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c == '\'' || c >= 0x80
}

const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
	seedWord  = 0x5bd1e995
	seedPair  = 0x1b873593
)

// fmix is MurmurHash3's 32-bit finaliser: every input bit reaches every
// output bit, so the bucket (low bits) and sign (top bit) are independent.
func fmix(h uint32) uint32 {
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}
