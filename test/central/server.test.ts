// The sandbox's HTTP surface: auth, the change feed's paging and cursors, the idempotency
// store, the fault switches and the /sandbox controls, over real HTTP on 127.0.0.1.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import { stubEngine } from './stub-engine.js';

let central: RunningCentral;

beforeEach(async () => {
  central = await startCentral({ engine: stubEngine, faultSeed: 7 });
});
afterEach(async () => {
  await central.close();
});

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${central.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
    headers: res.headers,
  };
}

async function token(): Promise<string> {
  const r = await call('POST', '/v1/terminal/sign_in', {
    terminal_id: central.terminal_id,
    api_key: central.api_key,
  });
  return r.body!.token as string;
}

const sale = (id: string) => ({
  transaction_id: id,
  customer_id: DEMO.customers.anna,
  check_items: [{ code: 'COF-1', quantity: 1, price: 2.5 }],
});

describe('sandbox central service', () => {
  it('listens on 127.0.0.1 only', () => {
    expect(central.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses a wrong API key with 401 and the error shape', async () => {
    const r = await call('POST', '/v1/terminal/sign_in', {
      terminal_id: central.terminal_id,
      api_key: 'nope',
    });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      error: { code: 'unauthorized', message: expect.any(String), path: null },
    });
  });

  it('refuses a call without a token with 401', async () => {
    const r = await call('GET', '/v1/terminal/changes');
    expect(r.status).toBe(401);
  });

  it('refuses an invalid body with 400 naming the field', async () => {
    const t = await token();
    const r = await call(
      'POST',
      '/v1/terminal/calc_check',
      { check_items: [{ code: 'X' }] },
      { authorization: `Bearer ${t}` },
    );
    expect(r.status).toBe(400);
    expect((r.body!.error as { path: string }).path).toBe('check_items[0].quantity');
  });

  it('lists the first 20 problems of a bad body and counts the rest', async () => {
    const t = await token();
    const lines = Array.from({ length: 200 }, () => ({ code: 'X' }));
    const r = await call(
      'POST',
      '/v1/terminal/calc_check',
      { check_items: lines },
      { authorization: `Bearer ${t}` },
    );
    expect(r.status).toBe(400);
    const details = (r.body!.error as { details: { problems: unknown[]; more_problems: number } })
      .details;
    expect(details.problems).toHaveLength(20);
    expect(details.more_problems).toBe(180);
  });

  it('pages a snapshot with total and done, then switches to deltas', async () => {
    const t = await token();
    const auth = { authorization: `Bearer ${t}` };
    const total = central.store.countLive();
    let cursor: string | null = null;
    let seen = 0;
    for (let i = 0; i < 100; i++) {
      const q: string = cursor ? `?limit=7&cursor=${encodeURIComponent(cursor)}` : '?limit=7';
      const r = await call('GET', `/v1/terminal/changes${q}`, undefined, auth);
      expect(r.status).toBe(200);
      seen += (r.body!.changes as unknown[]).length;
      cursor = r.body!.cursor as string;
      if (r.body!.total !== null) expect(r.body!.total).toBe(total);
      if (!r.body!.has_more) break;
    }
    expect(seen).toBe(total);
    central.store.upsert('coupon_batch', 'b-new', { id: 'b-new', code: 'NEW' });
    central.store.remove('coupon_batch', 'b-new');
    const r = await call('GET', `/v1/terminal/changes?cursor=${cursor}`, undefined, auth);
    expect(r.body!.total).toBeNull();
    expect(r.body!.changes).toEqual([
      { entity: 'coupon_batch', op: 'delete', id: 'b-new', data: null },
    ]);
  });

  it('answers 410 cursor-expired for a cursor older than the horizon', async () => {
    const t = await token();
    central.store.upsert('coupon_batch', 'b1', { id: 'b1', code: 'B1' });
    central.store.compact();
    const r = await call('GET', '/v1/terminal/changes?cursor=d.1', undefined, {
      authorization: `Bearer ${t}`,
    });
    expect(r.status).toBe(410);
    expect((r.body!.error as { code: string }).code).toBe('cursor-expired');
  });

  it('applies a key once and repeats the first answer', async () => {
    const t = await token();
    const id = '019a0000-0000-7000-8000-000000000001';
    const h = { authorization: `Bearer ${t}`, 'idempotency-key': id };
    const a = await call('POST', '/v1/terminal/process_check', sale(id), h);
    const b = await call('POST', '/v1/terminal/process_check', sale(id), h);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(central.store.transactions()).toHaveLength(1);
  });

  it('repeats the first answer to the stand-in copy of a check (subtype, PIN check, clock flag)', async () => {
    const t = await token();
    const id = '019a0000-0000-7000-8000-000000000003';
    const h = { authorization: `Bearer ${t}`, 'idempotency-key': id };
    const a = await call('POST', '/v1/terminal/process_check', sale(id), h);
    const standIn = {
      ...sale(id),
      transaction_subtype: 'offline',
      special_account_required_values_verify: false,
      external_additional_info: { clock_suspect: true },
    };
    const b = await call('POST', '/v1/terminal/process_check', standIn, h);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(central.store.transactions()).toHaveLength(1);
  });

  it('answers 409 for a key reused with another body', async () => {
    const t = await token();
    const id = '019a0000-0000-7000-8000-000000000002';
    const h = { authorization: `Bearer ${t}`, 'idempotency-key': id };
    await call('POST', '/v1/terminal/process_check', sale(id), h);
    const other = { ...sale(id), check_items: [{ code: 'COF-1', quantity: 2, price: 2.5 }] };
    const r = await call('POST', '/v1/terminal/process_check', other, h);
    expect(r.status).toBe(409);
    expect((r.body!.error as { code: string }).code).toBe('idempotency-conflict');
  });

  it('refuses a write without an Idempotency-Key', async () => {
    const t = await token();
    const r = await call(
      'POST',
      '/v1/terminal/process_check',
      sale('019a0000-0000-7000-8000-000000000003'),
      {
        authorization: `Bearer ${t}`,
      },
    );
    expect(r.status).toBe(400);
  });

  it('keeps a 422 refusal under its key', async () => {
    const t = await token();
    const id = '019a0000-0000-7000-8000-000000000004';
    const h = { authorization: `Bearer ${t}`, 'idempotency-key': id };
    const body = { ...sale(id), bonuses_redeemed_amount: 1_000_000 };
    const a = await call('POST', '/v1/terminal/process_check', body, h);
    const b = await call('POST', '/v1/terminal/process_check', body, h);
    expect(a.status).toBe(422);
    expect(b.status).toBe(422);
    expect(b.body).toEqual(a.body);
  });

  it('sends 429 with Retry-After when told to', async () => {
    const key = { authorization: `Bearer ${central.api_key}` };
    const put = await call('PUT', '/sandbox/faults', { rate_429: 1, retry_after_s: 3 }, key);
    expect(put.status).toBe(200);
    const r = await call('POST', '/v1/terminal/sign_in', {
      terminal_id: central.terminal_id,
      api_key: central.api_key,
    });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('3');
  });

  it('commits then drops the response when told to', async () => {
    const t = await token();
    central.server.setFaults({ commit_then_drop_rate: 1 });
    const id = '019a0000-0000-7000-8000-000000000005';
    await expect(
      call('POST', '/v1/terminal/process_check', sale(id), {
        authorization: `Bearer ${t}`,
        'idempotency-key': id,
      }),
    ).rejects.toThrow();
    expect(central.store.transaction(id)).toBeDefined();
  });

  it('guards the sandbox controls with the demo API key', async () => {
    const r = await call('GET', '/sandbox/balances', undefined, { authorization: 'Bearer wrong' });
    expect(r.status).toBe(401);
    const ok = await call('GET', '/sandbox/balances', undefined, {
      authorization: `Bearer ${central.api_key}`,
    });
    expect(ok.status).toBe(200);
    expect((ok.body!.customers as unknown[]).length).toBeGreaterThan(3);
  });

  it('signs staff in by auth code and never returns the hash', async () => {
    const t = await token();
    const r = await call(
      'POST',
      '/v1/terminal/staff/sign_in',
      { auth_code: DEMO.authCodes.manager },
      { authorization: `Bearer ${t}` },
    );
    expect(r.status).toBe(200);
    const staff = r.body!.staff as Record<string, unknown>;
    expect(staff.id).toBe(DEMO.staff.manager);
    expect(staff).not.toHaveProperty('auth_code_hash');
  });

  it('finds a customer by card and returns the records to cache', async () => {
    const t = await token();
    const r = await call(
      'GET',
      `/v1/terminal/customers/lookup?id=${DEMO.cards.anna}&id_type=card`,
      undefined,
      {
        authorization: `Bearer ${t}`,
      },
    );
    expect(r.status).toBe(200);
    const entities = (r.body!.changes as { entity: string }[]).map((c) => c.entity);
    expect(entities).toContain('customer');
    expect(entities).toContain('special_account');
  });
});
