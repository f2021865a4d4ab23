// Optimal-string-alignment distance (Levenshtein plus swapping two neighbours, "Harahpa" for "Harahap"),
// stopping early: the matcher only ever asks "at most 1?" or "at most 2?".
//
// It runs for many word pairs of every row, so the three DP rows are reused between calls rather than
// allocated each time (JavaScript runs this single-threaded; no call can interleave with another).

let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(32), new Int32Array(32), new Int32Array(32)];

/** Distance between `a` and `b`, or `limit + 1` as soon as it is known to exceed `limit`. */
export function boundedEditDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (a === b) return 0;
  const width = b.length + 1;
  if (rows[0].length < width) rows = [new Int32Array(width), new Int32Array(width), new Int32Array(width)];
  let [beforePrevious, previous, current] = rows;
  for (let j = 0; j < width; j += 1) previous[j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        value = Math.min(value, beforePrevious[j - 2]! + 1);
      }
      current[j] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > limit) return limit + 1;
    [beforePrevious, previous, current] = [previous, current, beforePrevious];
  }
  const distance = previous[b.length]!;
  return distance > limit ? limit + 1 : distance;
}
