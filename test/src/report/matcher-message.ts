/** The message vitest itself gives a failed assertion, so report code is tested on real matcher texts. */
export function messageOf(assertion: () => void): string {
  try {
    assertion();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("the assertion passed");
}
