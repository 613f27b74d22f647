// Open authorisations that run out (docs/forecourt.md, "Open authorisations"): a prepay whose
// pump nobody used in time is released again, and the owner is told its money waits to be
// given back (an attention item naming the prepay), since nobody at the till may be looking.
import { describe, expect, it } from 'vitest';
import { cashPrepay, forecourtTill, PRICES, untilIdle } from './forecourt-till.js';
import { FakeForecourt } from './fake-forecourt.js';
import { tillPerTest } from './helpers.js';

const { open } = tillPerTest();

describe('a release that runs out', () => {
  it('puts a prepay whose pump nobody used on the attention list, to be given back', async () => {
    const quick = { forecourt: { release_after_ms: 100 } };
    const port = new FakeForecourt(2, PRICES);
    const { t } = await forecourtTill(open, 2, undefined, port, quick);
    const id = await cashPrepay(t);
    await t.ok('pump-authorise', { pump: 1, transaction_id: id });
    await untilIdle(port, 1);
    const list = await t.ok('attention-list', {});
    const item = list.items.find((a) => a.kind === 'prepay-unused');
    expect(item).toMatchObject({
      transaction_id: id,
      message: 'the prepay at pump 1 was not used in time: complete it to give its money back',
      details: { pump: 1 },
    });
  }, 30_000);

  it('puts nothing on the list for a postpay release that runs out', async () => {
    const quick = { forecourt: { release_after_ms: 100 } };
    const port = new FakeForecourt(2, PRICES);
    const { t } = await forecourtTill(open, 2, undefined, port, quick);
    await t.ok('pump-release', { pump: 2 });
    expect(port.pump(2)!.state).toBe('authorised');
    await untilIdle(port, 2);
    expect(port.pump(2)!.state).toBe('idle');
    const list = await t.ok('attention-list', {});
    expect(list.items.filter((a) => a.kind === 'prepay-unused')).toEqual([]);
  }, 30_000);
});
