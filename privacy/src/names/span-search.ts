/** Index of the last span (sorted by start) starting at or before `at`; -1 when none. */
export function lastStartingBy(spans: readonly { readonly start: number }[], at: number): number {
  let lo = 0;
  let hi = spans.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((spans[mid] as { readonly start: number }).start <= at) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
