// A minimal file-backed payment journal for the crash tests: one JSON line per change, synced
// to disk before the call returns, replayed on read (last line per id wins). The store's own
// journal (SQLite) replaces it in the terminal.
import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync } from 'node:fs';
import {
  type JournalEntry,
  JournalEntrySchema,
  type JournalPatch,
  type NewJournalEntry,
  type PaymentJournal,
} from '../../../src/devices/payment-journal.js';

export class FileJournal implements PaymentJournal {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  all(): Map<string, JournalEntry> {
    const map = new Map<string, JournalEntry>();
    if (!existsSync(this.path)) return map;
    for (const line of readFileSync(this.path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      // A line cut by a crash mid-write is not a change that happened.
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        continue;
      }
      const e = JournalEntrySchema.parse(json);
      map.set(e.id, e);
    }
    return map;
  }

  private write(e: JournalEntry): JournalEntry {
    appendFileSync(this.path, `${JSON.stringify(e)}\n`);
    const fd = openSync(this.path, 'r');
    fsyncSync(fd);
    closeSync(fd);
    return e;
  }

  create(entry: NewJournalEntry): JournalEntry {
    const at = new Date().toISOString();
    return this.write(
      JournalEntrySchema.parse({
        ...entry,
        status: 'inprocess',
        phase: 'created',
        created_at: at,
        updated_at: at,
      }),
    );
  }

  update(id: string, patch: JournalPatch): JournalEntry {
    const old = this.all().get(id);
    if (!old) throw new Error(`no journal entry ${id}`);
    return this.write(
      JournalEntrySchema.parse({ ...old, ...patch, updated_at: new Date().toISOString() }),
    );
  }

  listUnresolved(unit?: string): JournalEntry[] {
    return [...this.all().values()].filter(
      (e) => e.status === 'inprocess' && (unit === undefined || e.unit === unit),
    );
  }

  lastReceipt(unit: string): number | null {
    const withReceipt = [...this.all().values()].filter(
      (e) => e.unit === unit && e.receipt_no !== null,
    );
    withReceipt.sort((a, b) => a.updated_at.localeCompare(b.updated_at));
    return withReceipt[withReceipt.length - 1]?.receipt_no ?? null;
  }
}
