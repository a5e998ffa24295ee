package fs

import (
	"fmt"
	"strings"
)

const (
	// diffContext is the number of unchanged lines around a change.
	diffContext = 3
	// maxLCSCells bounds the dynamic-programming table; a larger changed
	// region is shown as a whole replacement (still a correct diff).
	maxLCSCells = 2_000_000
)

// FileDiff is a line-based unified diff and its counts.
type FileDiff struct {
	// Text is the diff in unified format with 3 lines of context and
	// "--- a/name", "+++ b/name" headers; "" when nothing changed.
	Text string
	// Added and Removed count the "+" and "-" lines.
	Added, Removed int
}

// diffOp is one line of an edit script: ' ' kept, '-' removed, '+' added.
type diffOp struct {
	kind byte
	line string // with its "\n", if it had one
}

// Diff compares old and new line by line (a longest common subsequence
// after trimming the common head and tail) and returns a unified diff
// that patch(1) applies to old to give new.
func Diff(name, old, new string) FileDiff {
	if old == new {
		return FileDiff{}
	}
	ops := diffOps(splitLines(old), splitLines(new))
	var d FileDiff
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", name, name)
	// aPos/bPos: lines of old/new consumed before ops[k].
	aPos, bPos := make([]int, len(ops)+1), make([]int, len(ops)+1)
	for k, op := range ops {
		aPos[k+1], bPos[k+1] = aPos[k], bPos[k]
		switch op.kind {
		case ' ':
			aPos[k+1]++
			bPos[k+1]++
		case '-':
			aPos[k+1]++
			d.Removed++
		case '+':
			bPos[k+1]++
			d.Added++
		}
	}
	for i := 0; i < len(ops); {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		last := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				last = j
			} else if j-last > 2*diffContext {
				break
			}
		}
		start, end := max(i-diffContext, 0), min(last+diffContext+1, len(ops))
		writeHunk(&b, ops[start:end], aPos[start], aPos[end]-aPos[start], bPos[start], bPos[end]-bPos[start])
		i = end
	}
	d.Text = b.String()
	return d
}

// writeHunk writes one "@@ -a,b +c,d @@" hunk. An empty range is numbered
// by the line before it, as diff(1) does.
func writeHunk(b *strings.Builder, ops []diffOp, aStart, aCount, bStart, bCount int) {
	fmt.Fprintf(b, "@@ -%s +%s @@\n", hunkRange(aStart, aCount), hunkRange(bStart, bCount))
	for _, op := range ops {
		b.WriteByte(op.kind)
		b.WriteString(op.line)
		if !strings.HasSuffix(op.line, "\n") {
			b.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

func hunkRange(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}

// splitLines splits s after each "\n"; a last line without one is kept.
func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// diffOps is an edit script turning a into b.
func diffOps(a, b []string) []diffOp {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	ops := make([]diffOp, 0, len(a)+len(b)-head-tail)
	for _, l := range a[:head] {
		ops = append(ops, diffOp{' ', l})
	}
	ops = append(ops, middleOps(a[head:len(a)-tail], b[head:len(b)-tail])...)
	for _, l := range a[len(a)-tail:] {
		ops = append(ops, diffOp{' ', l})
	}
	return ops
}

// middleOps diffs the changed middle: an LCS table when it is small
// enough, otherwise remove all, then add all.
func middleOps(a, b []string) []diffOp {
	n, m := len(a), len(b)
	var ops []diffOp
	if n == 0 || m == 0 || (n+1)*(m+1) > maxLCSCells {
		for _, l := range a {
			ops = append(ops, diffOp{'-', l})
		}
		for _, l := range b {
			ops = append(ops, diffOp{'+', l})
		}
		return ops
	}
	// lcs[i*(m+1)+j] is the LCS length of a[i:] and b[j:].
	w := m + 1
	lcs := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i]})
			i++
			j++
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			ops = append(ops, diffOp{'-', a[i]})
			i++
		default:
			ops = append(ops, diffOp{'+', b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		ops = append(ops, diffOp{'-', a[i]})
	}
	for ; j < m; j++ {
		ops = append(ops, diffOp{'+', b[j]})
	}
	return ops
}
