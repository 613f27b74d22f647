// The rules in memory: loaded from the cache and validated once, indexed by loyalty and POS,
// and reloaded when a pull changes them, so a sale never re-parses or re-validates 10,000
// rules (the issue: "validated once when loaded into memory").
import type Database from 'better-sqlite3';

/** Validates one stored rule into the shape the engine takes; an invalid rule is left out. */
export type RuleValidator<R> = (
  data: unknown,
) => { ok: true; rule: R } | { ok: false; error: string };

export interface RejectedRule {
  readonly id: string;
  readonly error: string;
}

interface LoyaltyRules<R> {
  readonly allPos: R[];
  readonly byPos: Map<string, R[]>;
}

const ANY = '\u0000any';

export function createRuleSet<R>(db: Database.Database, validate: RuleValidator<R>) {
  const allRules = db.prepare<
    [],
    { id: string; loyalty_id: string | null; all_pos: number; data: string }
  >('SELECT id, loyalty_id, all_pos, data FROM rule WHERE active = 1 ORDER BY id');
  const allPos = db.prepare<[], { pos_id: string; rule_id: string }>(
    'SELECT pos_id, rule_id FROM rule_pos',
  );

  let byLoyalty = new Map<string, LoyaltyRules<R>>();
  let rejected: RejectedRule[] = [];
  let stale = true;
  let count = 0;
  const memo = new Map<string, readonly R[]>();

  function load(): void {
    const next = new Map<string, LoyaltyRules<R>>();
    const posOf = new Map<string, string[]>();
    for (const { pos_id, rule_id } of allPos.iterate()) {
      const list = posOf.get(rule_id);
      if (list) list.push(pos_id);
      else posOf.set(rule_id, [pos_id]);
    }
    const bad: RejectedRule[] = [];
    let n = 0;
    for (const row of allRules.iterate()) {
      const v = validate(JSON.parse(row.data) as unknown);
      if (!v.ok) {
        bad.push({ id: row.id, error: v.error });
        continue;
      }
      n += 1;
      const key = row.loyalty_id ?? ANY;
      let group = next.get(key);
      if (!group) {
        group = { allPos: [], byPos: new Map() };
        next.set(key, group);
      }
      if (row.all_pos === 1) group.allPos.push(v.rule);
      else {
        for (const pos of posOf.get(row.id) ?? []) {
          const list = group.byPos.get(pos);
          if (list) list.push(v.rule);
          else group.byPos.set(pos, [v.rule]);
        }
      }
    }
    byLoyalty = next;
    rejected = bad;
    count = n;
    memo.clear();
    stale = false;
  }

  return {
    /** Marks the rules stale (a pull changed them); `reload` or the next lookup reloads. */
    invalidate(): void {
      stale = true;
    },
    reload(): void {
      load();
    },
    /**
     * The active rules that may apply at a POS of a loyalty: those of the loyalty (or of no
     * loyalty) listing no POS or listing this one. The engine does the rest of engine.md 4.
     * The same array is returned until the rules change; callers must not mutate it.
     */
    candidates(loyaltyId: string | null, posId: string | null): readonly R[] {
      if (stale) load();
      const key = `${loyaltyId ?? ''}\u0000${posId ?? ''}`;
      const hit = memo.get(key);
      if (hit) return hit;
      const out: R[] = [];
      for (const k of loyaltyId === null ? [ANY] : [loyaltyId, ANY]) {
        const g = byLoyalty.get(k);
        if (!g) continue;
        out.push(...g.allPos);
        if (posId !== null) out.push(...(g.byPos.get(posId) ?? []));
      }
      memo.set(key, out);
      return out;
    },
    /** Stored rules that failed validation at the last load (reported, never used). */
    rejected(): readonly RejectedRule[] {
      if (stale) load();
      return rejected;
    },
    size(): number {
      if (stale) load();
      return count;
    },
  };
}

export type RuleSet<R> = ReturnType<typeof createRuleSet<R>>;
