/** The error a promise rejects with; throws (failing the test) when it resolves instead. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err: unknown) {
    return err;
  }
  throw new Error('expected a rejection');
}
