// A calculation started ahead of the draft change it prices (a typed code, while its search
// runs), so a code costs one round trip: the next calculation takes its answer when it prices
// exactly the same check, and any other calculation, or a drop, discards it for good.

export class CalcAhead<A> {
  private held: { key: string; answer: Promise<A> } | null = null;

  /** Asks for `check`'s answer now (`ask`), replacing any held one. */
  start(check: unknown, ask: () => Promise<A>): void {
    this.held = { key: JSON.stringify(check), answer: ask() };
  }

  drop(): void {
    this.held = null;
  }

  /** The answer started for exactly `check`, or null; either way nothing is held after. */
  take(check: unknown): Promise<A> | null {
    const held = this.held;
    this.held = null;
    return held && held.key === JSON.stringify(check) ? held.answer : null;
  }
}
