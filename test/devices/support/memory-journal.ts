// An in-memory payment journal for the device tests (the terminal's is the store's card
// journal).
import {
  type JournalEntry,
  JournalEntrySchema,
  type JournalPatch,
  type NewJournalEntry,
  type PaymentJournal,
} from '../../../src/devices/payment-journal.js';

export class MemoryPaymentJournal implements PaymentJournal {
  readonly entries = new Map<string, JournalEntry>();
  private readonly now: () => Date;

  constructor(now: () => Date = () => new Date()) {
    this.now = now;
  }

  create(entry: NewJournalEntry): JournalEntry {
    if (this.entries.has(entry.id)) throw new Error(`journal entry ${entry.id} exists`);
    const at = this.now().toISOString();
    const full = JournalEntrySchema.parse({
      ...entry,
      status: 'inprocess',
      phase: 'created',
      created_at: at,
      updated_at: at,
    });
    this.entries.set(full.id, full);
    return full;
  }

  update(id: string, patch: JournalPatch): JournalEntry {
    const old = this.entries.get(id);
    if (!old) throw new Error(`no journal entry ${id}`);
    const next = JournalEntrySchema.parse({
      ...old,
      ...patch,
      updated_at: this.now().toISOString(),
    });
    this.entries.set(id, next);
    return next;
  }

  listUnresolved(unit?: string): JournalEntry[] {
    return [...this.entries.values()].filter(
      (e) => e.status === 'inprocess' && (unit === undefined || e.unit === unit),
    );
  }

  lastReceipt(unit: string): number | null {
    let last: JournalEntry | null = null;
    for (const e of this.entries.values()) {
      if (
        e.unit === unit &&
        e.receipt_no !== null &&
        (last === null || e.updated_at >= last.updated_at)
      )
        last = e;
    }
    return last?.receipt_no ?? null;
  }
}
