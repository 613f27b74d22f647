// A calculation started ahead of the draft change it prices (a typed code, while its search
// runs), so a code costs one round trip: the next calculation takes its answer when it prices
// exactly the same check, and any other calculation, or a drop, discards it for good.

/** What `take` gives: the answer itself when it is already in, else its promise. */
export type Taken<A> = { ready: true; value: A } | { ready: false; answer: Promise<A> };

interface Held<A> {
  key: string;
  answer: Promise<A>;
  /** Set when the answer is in: the taker uses it in the same task, with no await. */
  value?: { v: A };
}

export class CalcAhead<A> {
  private held: Held<A> | null = null;

  /** Asks for `check`'s answer now (`ask`), replacing any held one. */
  start(check: unknown, ask: () => Promise<A>): void {
    const held: Held<A> = { key: JSON.stringify(check), answer: ask() };
    // a failure stays with `answer` for whoever awaits it
    held.answer.then(
      (v) => (held.value = { v }),
      () => undefined,
    );
    this.held = held;
  }

  drop(): void {
    this.held = null;
  }

  /**
   * The answer started for exactly `check` (the value when it is already in: the line and its
   * figures then reach the screen in one render, not two), or null; nothing is held after.
   */
  take(check: unknown): Taken<A> | null {
    const held = this.held;
    this.held = null;
    if (!held || held.key !== JSON.stringify(check)) return null;
    return held.value
      ? { ready: true, value: held.value.v }
      : { ready: false, answer: held.answer };
  }
}
