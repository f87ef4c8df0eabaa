/** Waits until at least `marginS` seconds remain in the current UTC minute, so a fixed window cannot roll mid-test. */
export async function awayFromMinuteEdge(marginS = 8): Promise<void> {
  const intoMinute = (Date.now() % 60_000) / 1000;
  if (60 - intoMinute < marginS) await new Promise((r) => setTimeout(r, (60 - intoMinute) * 1000 + 100));
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
