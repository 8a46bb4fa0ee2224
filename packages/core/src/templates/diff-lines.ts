/** One line of a line diff; line numbers are 1-based in the old (left) and new (right) text. */
export interface DiffLine {
  kind: "same" | "added" | "removed";
  text: string;
  leftLine?: number;
  rightLine?: number;
}

/** Beyond this many differing lines (after the common start and end), show a whole-block replace. */
export const MAX_DIFF_LINES = 10_000;
// Myers' trace grows with the square of the edit distance; past this, a block replace reads as well.
const MAX_EDIT_DISTANCE = 1_000;

type Edit = "same" | "added" | "removed";

/**
 * Myers' O(ND) diff: the shortest edit script turning `a` into `b`, or null when it needs more
 * than `maxD` edits. `trace[d]` keeps the furthest x per diagonal before step d, for -d-1..d+1.
 */
function shortestEdit(a: readonly string[], b: readonly string[], maxD: number): Edit[] | null {
  const n = a.length;
  const m = b.length;
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 1);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(n + m, maxD); d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m);
    }
  }
  return null;
}

function backtrack(trace: readonly Int32Array[], n: number, m: number): Edit[] {
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const before = trace[d] as Int32Array;
    const at = (k: number) => before[k + d + 1] ?? 0;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      edits.push("same");
      x--;
      y--;
    }
    edits.push(x === prevX ? "added" : "removed");
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    edits.push("same");
    x--;
    y--;
  }
  return edits.reverse();
}

const linesOf = (text: string) => (text === "" ? [] : text.split(/\r?\n/));

/**
 * A line diff of two texts: the common start and end as "same", the middle by Myers' algorithm,
 * or as all of `a`'s middle removed and all of `b`'s added when it is too large to diff.
 */
export function diffLines(a: string, b: string): DiffLine[] {
  const left = linesOf(a);
  const right = linesOf(b);
  let start = 0;
  while (start < left.length && start < right.length && left[start] === right[start]) start++;
  let end = 0;
  while (end < left.length - start && end < right.length - start && left[left.length - 1 - end] === right[right.length - 1 - end]) end++;

  const leftMiddle = left.slice(start, left.length - end);
  const rightMiddle = right.slice(start, right.length - end);
  const edits =
    (leftMiddle.length + rightMiddle.length <= MAX_DIFF_LINES ? shortestEdit(leftMiddle, rightMiddle, MAX_EDIT_DISTANCE) : null) ??
    [...leftMiddle.map((): Edit => "removed"), ...rightMiddle.map((): Edit => "added")];

  const lines: DiffLine[] = [];
  let l = 0;
  let r = 0;
  const same = () => {
    lines.push({ kind: "same", text: left[l] ?? "", leftLine: l + 1, rightLine: r + 1 });
    l++;
    r++;
  };
  for (let i = 0; i < start; i++) same();
  for (const edit of edits) {
    if (edit === "same") same();
    else if (edit === "removed") lines.push({ kind: "removed", text: left[l] ?? "", leftLine: ++l });
    else lines.push({ kind: "added", text: right[r] ?? "", rightLine: ++r });
  }
  for (let i = 0; i < end; i++) same();
  return lines;
}
