import { beforeEach, describe, expect, it } from 'vitest';
import type { EngineRule } from '../../src/contract/engine.js';
import type { Change } from '../../src/store/cache.js';
import { storePerTest } from './store-per-test.js';

const db = storePerTest('cache-');

const customer = (id: string, extra: Record<string, unknown> = {}) => ({
  entity: 'customer',
  op: 'upsert' as const,
  id,
  data: {
    id,
    type: 'customer',
    access_type: 'full-bonuses-access',
    bonuses: { regular: 10 },
    ...extra,
  },
});

const rule = (
  id: string,
  loyalty: string | null,
  pos: string[] = [],
  extra: Record<string, unknown> = {},
) => ({
  entity: 'rule',
  op: 'upsert' as const,
  id,
  data: {
    id,
    loyalty_id: loyalty,
    action_type: 'discount',
    value: { type: 'percentage', thresholds: [{ from: 0, value: 10 }] },
    pos: pos.map((p) => ({ id: p, title: p })),
    ...extra,
  },
});

function page(
  changes: Array<{ entity: string; op: 'upsert' | 'delete'; id: string; data?: unknown }>,
  cursor = 'c1',
) {
  return db.store.applyPage({ changes, cursor, requestedAt: db.clock.now() });
}

describe('cache lookups', () => {
  beforeEach(() => {
    page([
      customer('c1', {
        phone: '+49 (30) 123-456',
        email: ' Anna@Example.COM ',
        external_id: 'ext-1',
        qr_code: 'QR-C1',
      }),
      {
        entity: 'card',
        op: 'upsert',
        id: 'k1',
        data: { id: 'k1', customer_id: 'c1', code: 'CARD-001' },
      },
      {
        entity: 'vehicle',
        op: 'upsert',
        id: 'v1',
        data: {
          id: 'v1',
          customer_id: 'c1',
          qr_code: 'VQR-1',
          vehicle_id: 'TAG-1',
          avi_id: 'AVI-1',
        },
      },
      {
        entity: 'coupon',
        op: 'upsert',
        id: 'cp1',
        data: { id: 'cp1', code: 'SAVE10', customer_id: 'c1', status: 'open' },
      },
    ]);
  });

  it('finds a customer by card code', () => {
    expect(db.store.cache.customerByCard('CARD-001')?.id).toBe('c1');
    expect(db.store.cache.identify('CARD-001', 'card').customer?.id).toBe('c1');
  });

  it('finds a customer by phone whatever its punctuation', () => {
    expect(db.store.cache.identify('4930 123456', 'phone').customer?.id).toBe('c1');
  });

  it('finds a customer by e-mail ignoring case and spaces', () => {
    expect(db.store.cache.identify('anna@example.com', 'email').customer?.id).toBe('c1');
  });

  it('finds a customer by external id and by QR code', () => {
    expect(db.store.cache.identify('ext-1', 'external-id').customer?.id).toBe('c1');
    expect(db.store.cache.identify('QR-C1', 'qr').customer?.id).toBe('c1');
  });

  it('finds a vehicle and its customer by QR, tag or AVI id', () => {
    for (const [id, type] of [
      ['VQR-1', 'vehicle'],
      ['TAG-1', 'vehicle'],
      ['AVI-1', 'avi'],
    ] as const) {
      const found = db.store.cache.identify(id, type);
      expect(found.vehicle?.id).toBe('v1');
      expect(found.customer?.id).toBe('c1');
    }
  });

  it('finds a coupon by code', () => {
    expect(db.store.cache.couponsByCode('SAVE10').map((c) => c.id)).toEqual(['cp1']);
  });

  it('returns nothing for an unknown identifier', () => {
    expect(db.store.cache.identify('nope', 'card')).toEqual({ customer: null, vehicle: null });
  });

  it('updates the lookup columns when a record changes', () => {
    page([customer('c1', { phone: '+1 555 0100' })], 'c2');
    expect(db.store.cache.identify('15550100', 'phone').customer?.id).toBe('c1');
    expect(db.store.cache.identify('4930123456', 'phone').customer).toBeNull();
  });

  it('applies deletes', () => {
    page([{ entity: 'card', op: 'delete', id: 'k1' }], 'c2');
    expect(db.store.cache.customerByCard('CARD-001')).toBeNull();
  });
});

describe('pulling pages', () => {
  it('stores the cursor and the last pull with the page', () => {
    page([customer('c1')], 'cursor-7');
    expect(db.store.sync.cursor()).toBe('cursor-7');
    expect(db.store.sync.lastPullAt()).toBe(db.clock.now());
  });

  it('quarantines an invalid record without blocking the rest of the page', () => {
    const r = page([
      customer('c1'),
      { entity: 'customer', op: 'upsert', id: 'c2', data: { id: 'c2', access_type: 'vip' } },
      customer('c3'),
    ]);
    expect(r).toEqual({ applied: 2, quarantined: 1, swapped: false });
    expect(db.store.cache.customerById('c3')?.id).toBe('c3');
    const [q] = db.store.sync.quarantined();
    expect(q?.recordId).toBe('c2');
    expect(q?.error).toMatch(/access_type/);
    expect(db.store.sync.quarantineCount()).toBe(1);
  });

  it('quarantines an unknown entity', () => {
    expect(page([{ entity: 'spaceship', op: 'upsert', id: 'x', data: {} }]).quarantined).toBe(1);
  });

  it('clears a quarantined record when a valid version of it arrives', () => {
    page([{ entity: 'customer', op: 'upsert', id: 'c2', data: { id: 'c2' } }]);
    page([customer('c2')], 'c2');
    expect(db.store.sync.quarantineCount()).toBe(0);
  });

  it('never stores a clear staff auth code or PIN', () => {
    page([
      {
        entity: 'staff',
        op: 'upsert',
        id: 's1',
        data: { id: 's1', auth_code: '1234', auth_code_hash: 'scrypt$x$y' },
      },
      {
        entity: 'special_account',
        op: 'upsert',
        id: 'a1',
        data: { id: 'a1', customer_id: 'c1', pin: '9999', pin_hash: 'scrypt$a$b' },
      },
    ]);
    expect(db.store.cache.get('staff', 's1')).toEqual({ id: 's1', auth_code_hash: 'scrypt$x$y' });
    expect(db.store.cache.get('special_account', 'a1')).not.toHaveProperty('pin');
    expect(db.store.cache.pinHashOf('a1')).toBe('scrypt$a$b');
  });

  it('loads a full snapshot into staging and swaps it in with the last page', () => {
    page([customer('old'), rule('r-old', 'l1')]);
    const first = db.store.applyPage({
      changes: [customer('n1')],
      cursor: 's1',
      requestedAt: db.clock.now(),
      snapshot: true,
      hasMore: true,
    });
    expect(first.swapped).toBe(false);
    // Until the swap the till still sees the old data, rules included.
    expect(db.store.cache.customerById('old')).not.toBeNull();
    expect(db.store.rules.candidates('l1', null)).toHaveLength(1);
    expect(db.store.sync.snapshot()?.cursor).toBe('s1');
    const last = db.store.applyPage({
      changes: [customer('n2'), rule('r-new', 'l1')],
      cursor: 's2',
      requestedAt: db.clock.now(),
      snapshot: true,
      hasMore: false,
    });
    expect(last.swapped).toBe(true);
    expect(db.store.cache.customerById('old')).toBeNull();
    expect(db.store.cache.count('customer')).toBe(2);
    expect(db.store.rules.candidates('l1', null).map((r) => (r as { id: string }).id)).toEqual([
      'r-new',
    ]);
    expect(db.store.sync.cursor()).toBe('s2');
    expect(db.store.sync.snapshot()).toBeNull();
  });

  it('counts the staged rows of a snapshot: a repeated record once, a deleted one not at all', () => {
    const stage = (changes: Change[], cursor: string) =>
      db.store.applyPage({
        changes,
        cursor,
        requestedAt: db.clock.now(),
        snapshot: true,
        hasMore: true,
      });
    stage([customer('s1'), customer('s2'), customer('s3')], 'p1');
    expect(db.store.sync.snapshot()?.staged).toBe(3);
    stage(
      [customer('s2', { phone: '+49 30 9' }), { entity: 'customer', op: 'delete', id: 's3' }],
      'p2',
    );
    expect(db.store.sync.snapshot()?.staged).toBe(2);
    // A delete of a record never staged changes nothing.
    stage([{ entity: 'customer', op: 'delete', id: 'nobody' }, customer('s4')], 'p3');
    expect(db.store.sync.snapshot()?.staged).toBe(3);
    db.store.applyPage({
      changes: [],
      cursor: 'p4',
      requestedAt: db.clock.now(),
      snapshot: true,
      hasMore: false,
    });
    expect(db.store.cache.count('customer')).toBe(3);
    // The repeated record is staged with its last version.
    expect(db.store.cache.customerByPhone('+49 30 9')?.id).toBe('s2');
  });
  it('applies a snapshot page with synchronous NORMAL and gives the connection FULL back', () => {
    const seen: number[] = [];
    // The changes are read inside the page's transaction: what they see is what it commits by.
    function* watched(): Generator<Change> {
      seen.push(db.store.pragmas().synchronous);
      yield customer('w1');
    }
    const at = { cursor: 's1', requestedAt: db.clock.now(), snapshot: true };
    db.store.applyPage({ ...at, changes: watched(), hasMore: true });
    expect(db.store.pragmas().synchronous).toBe(2);
    db.store.applyPage({ ...at, changes: watched(), hasMore: false });
    expect(seen).toEqual([1, 1]);
    expect(db.store.pragmas().synchronous).toBe(2);
  });

  it('checkpoints a snapshot page every 64 MiB of log and gives the connection its 1,000 pages back', () => {
    const seen: number[] = [];
    function* watched(): Generator<Change> {
      seen.push(db.store.pragmas().walAutocheckpoint);
      yield customer('w1');
    }
    const at = { cursor: 's1', requestedAt: db.clock.now(), snapshot: true };
    db.store.applyPage({ ...at, changes: watched(), hasMore: true });
    expect(db.store.pragmas().walAutocheckpoint).toBe(1_000);
    db.store.applyPage({ ...at, changes: watched(), hasMore: false });
    expect(seen).toEqual([16_384, 16_384]);
    expect(db.store.pragmas().walAutocheckpoint).toBe(1_000);
  });

  it('stages a page of many records in batches: each id once, with its last record, a deleted one gone', () => {
    // More records than one staging statement takes (STAGE_BATCH), ids repeated across and
    // within batches, a delete between them.
    const changes: Change[] = [];
    for (let i = 0; i < 250; i++) changes.push(customer(`m${i}`));
    changes.push(customer('m5', { phone: '+49 30 5' }));
    changes.push({ entity: 'customer', op: 'delete', id: 'm7' });
    for (let i = 0; i < 120; i++) changes.push(customer(`m${i % 3 === 0 ? i : 1000 + i}`));
    changes.push(customer('m6', { phone: '+49 30 6' }));
    const at = { requestedAt: db.clock.now(), snapshot: true };
    const first = db.store.applyPage({ ...at, changes, cursor: 'p1', hasMore: true });
    expect(first.applied).toBe(changes.length);
    // 250 ids, m7 deleted, 80 new ids (i % 3 !== 0) among the 120.
    expect(db.store.sync.snapshot()?.staged).toBe(250 - 1 + 80);
    db.store.applyPage({ ...at, changes: [], cursor: 'p2', hasMore: false });
    expect(db.store.cache.count('customer')).toBe(329);
    expect(db.store.cache.customerById('m7')).toBeNull();
    expect(db.store.cache.customerByPhone('+49 30 5')?.id).toBe('m5');
    expect(db.store.cache.customerByPhone('+49 30 6')?.id).toBe('m6');
  });

  it('stages a page resumed after a crash over its own rows without counting them twice', () => {
    const changes: Change[] = [];
    for (let i = 0; i < 150; i++) changes.push(customer(`r${i}`));
    const at = { requestedAt: db.clock.now(), snapshot: true, hasMore: true };
    db.store.applyPage({ ...at, changes, cursor: 'p1' });
    // The same records again (the page asked for a second time), one of them changed.
    changes[120] = customer('r120', { phone: '+49 30 120' });
    db.store.applyPage({ ...at, changes, cursor: 'p2' });
    expect(db.store.sync.snapshot()?.staged).toBe(150);
    db.store.applyPage({ ...at, changes: [], cursor: 'p3', hasMore: false });
    expect(db.store.cache.count('customer')).toBe(150);
    expect(db.store.cache.customerByPhone('+49 30 120')?.id).toBe('r120');
  });

  it('gives the connection FULL back when a snapshot page fails', () => {
    function* broken(): Generator<Change> {
      yield customer('b1');
      throw new Error('malformed body');
    }
    expect(() =>
      db.store.applyPage({
        changes: broken(),
        cursor: 's1',
        requestedAt: db.clock.now(),
        snapshot: true,
        hasMore: true,
      }),
    ).toThrow('malformed body');
    expect(db.store.pragmas().synchronous).toBe(2);
    expect(db.store.sync.snapshot()).toBeNull();
  });

  it('serves the lookups and the rules by POS from a swapped-in snapshot', () => {
    page([rule('r-old', 'l1', ['p1'])]);
    db.store.applyPage({
      changes: [
        customer('n1', { phone: '+49 30 77' }),
        {
          entity: 'card',
          op: 'upsert',
          id: 'k9',
          data: { id: 'k9', customer_id: 'n1', code: 'C9' },
        },
        rule('r-all', 'l1'),
        rule('r-p2', 'l1', ['p2', 'p3']),
      ],
      cursor: 's1',
      requestedAt: db.clock.now(),
      snapshot: true,
      hasMore: false,
    });
    expect(db.store.cache.customerByPhone('4930 77')?.id).toBe('n1');
    expect(db.store.cache.customerByCard('C9')?.id).toBe('n1');
    const ids = (p: string) =>
      db.store.rules
        .candidates('l1', p)
        .map((r) => (r as { id: string }).id)
        .sort();
    // The old rule's POS link went with it; the new rules' links were built at the swap.
    expect(ids('p1')).toEqual(['r-all']);
    expect(ids('p2')).toEqual(['r-all', 'r-p2']);
    expect(ids('p3')).toEqual(['r-all', 'r-p2']);
  });
});

describe('rules in memory', () => {
  it('gives the active rules of the loyalty for every POS and for this POS', () => {
    page([
      rule('r1', 'l1'),
      rule('r2', 'l1', ['p1']),
      rule('r3', 'l1', ['p2']),
      rule('r4', 'l2'),
      rule('r5', 'l1', [], { active: 0 }),
      rule('r6', null),
    ]);
    const ids = (l: string, p: string) =>
      db.store.rules
        .candidates(l, p)
        .map((r) => (r as { id: string }).id)
        .sort();
    expect(ids('l1', 'p1')).toEqual(['r1', 'r2', 'r6']);
    expect(ids('l1', 'p2')).toEqual(['r1', 'r3', 'r6']);
    expect(ids('l2', 'p1')).toEqual(['r4', 'r6']);
  });

  it('reloads the rules when a pull changes them, and not otherwise', () => {
    page([rule('r1', 'l1')]);
    const before = db.store.rules.candidates('l1', 'p1');
    page([customer('c1')], 'c2');
    expect(db.store.rules.candidates('l1', 'p1')).toBe(before);
    page([rule('r2', 'l1')], 'c3');
    expect(db.store.rules.candidates('l1', 'p1')).toHaveLength(2);
    page([{ entity: 'rule', op: 'delete', id: 'r1' }], 'c4');
    expect(db.store.rules.candidates('l1', 'p1').map((r) => (r as { id: string }).id)).toEqual([
      'r2',
    ]);
  });

  it('validates each rule once, when loaded, and leaves out an invalid one', async () => {
    let validations = 0;
    await db.reopen({
      ruleValidator: (data) => {
        validations += 1;
        return (data as { title?: string }).title
          ? { ok: true, rule: data as EngineRule }
          : { ok: false, error: 'title: required' };
      },
    });
    page([rule('r1', 'l1', [], { title: 'ten off' }), rule('r2', 'l1')]);
    for (let i = 0; i < 10; i++) db.store.rules.candidates('l1', 'p1');
    expect(db.store.rules.candidates('l1', 'p1')).toHaveLength(1);
    expect(db.store.rules.rejected()).toEqual([{ id: 'r2', error: 'title: required' }]);
    expect(validations).toBe(2);
  });
});

describe('the POS records’ version (posVersion)', () => {
  it('changes when a POS record is written, and not when another entity is', () => {
    const c = db.store.cache;
    const before = c.posVersion();
    db.store.cache.put('customer', { id: 'cu-pv', access_type: 'full-bonuses-access' }, 1);
    expect(c.posVersion()).toBe(before);
    db.store.cache.put('pos', { id: 'p-pv', catalog: [] }, 1);
    expect(c.posVersion()).not.toBe(before);
  });

  it('changes when another connection commits to the file', async () => {
    const { default: Database } = await import('better-sqlite3');
    const before = db.store.cache.posVersion();
    const other = new Database(db.file);
    try {
      other
        .prepare('INSERT INTO pos (id, data, updated_at) VALUES (\'p-x\', \'{"id":"p-x"}\', 1)')
        .run();
    } finally {
      other.close();
    }
    expect(db.store.cache.posVersion()).not.toBe(before);
  });
});
