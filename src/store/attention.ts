// The attention list (0003): items staff must look at, one row each with its resolution.
// Sources (the outbox's refusals, unresolved card payments, bonuses owed, ...) upsert their
// items by (kind, ref), so an item is listed once however often it is noticed; resolving an
// outbox refusal also marks the outbox row resolved.
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { KeptError } from '../contract/stored.js';
import { readStoredOrThrow } from './stored-json.js';

export interface AttentionRecord {
  readonly id: string;
  readonly kind: string;
  readonly ref: string;
  readonly transactionId: string | null;
  readonly createdAt: number;
  readonly message: string;
  readonly error: KeptError | null;
  readonly details: Record<string, unknown> | null;
  readonly resolvedAt: number | null;
  readonly resolvedBy: string | null;
  readonly resolvedByName: string | null;
  readonly comment: string | null;
}

export interface NewAttention {
  readonly id: string;
  readonly kind: string;
  readonly ref: string;
  readonly transactionId?: string | null;
  readonly message: string;
  readonly error?: KeptError | null;
  readonly details?: Record<string, unknown> | null;
}

interface Raw {
  id: string;
  kind: string;
  ref: string;
  transaction_id: string | null;
  created_at: number;
  message: string;
  error: string | null;
  details: string | null;
  resolved_at: number | null;
  resolved_by: string | null;
  resolved_by_name: string | null;
  comment: string | null;
}

const Details = z.record(z.string(), z.unknown());
/** A stored column through its schema; one that no longer passes throws `invalid-record`. */
const column = <T>(schema: z.ZodType<T>, r: Raw, name: 'error' | 'details'): T | null => {
  const text = r[name];
  return text === null
    ? null
    : readStoredOrThrow(schema.nullable(), text, `attention_item ${r.id} ${name}`);
};
const decode = (r: Raw): AttentionRecord => ({
  id: r.id,
  kind: r.kind,
  ref: r.ref,
  transactionId: r.transaction_id,
  createdAt: r.created_at,
  message: r.message,
  error: column(KeptError, r, 'error'),
  details: column(Details, r, 'details'),
  resolvedAt: r.resolved_at,
  resolvedBy: r.resolved_by,
  resolvedByName: r.resolved_by_name,
  comment: r.comment,
});

export function createAttention(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO attention_item (id, kind, ref, transaction_id, created_at, message, error, details)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, ref) DO NOTHING`,
  );
  const open = db.prepare<[], Raw>(
    'SELECT * FROM attention_item WHERE resolved_at IS NULL ORDER BY created_at, id',
  );
  const all = db.prepare<[], Raw>('SELECT * FROM attention_item ORDER BY created_at, id');
  const byId = db.prepare<[string], Raw>('SELECT * FROM attention_item WHERE id = ?');
  const countOpen = db.prepare<[], { n: number }>(
    'SELECT count(*) AS n FROM attention_item WHERE resolved_at IS NULL',
  );
  const resolve = db.prepare(
    `UPDATE attention_item SET resolved_at = ?, resolved_by = ?, resolved_by_name = ?, comment = ?
      WHERE id = ? AND resolved_at IS NULL`,
  );
  const resolveOutbox = db.prepare(
    "UPDATE outbox SET resolved_at = ?, resolved_by = ? WHERE transaction_id = ? AND status = 'rejected' AND resolved_at IS NULL",
  );

  const amend = db.prepare(
    'UPDATE attention_item SET message = ?, details = ? WHERE id = ? AND resolved_at IS NULL',
  );
  const settle = db.prepare(
    'UPDATE attention_item SET resolved_at = ?, comment = ? WHERE id = ? AND resolved_at IS NULL',
  );

  const byRef = db.prepare<[string, string], Raw>(
    'SELECT * FROM attention_item WHERE kind = ? AND ref = ?',
  );

  return {
    /** Adds an item unless one of the same kind and ref exists; answers the stored item. */
    note(item: NewAttention, nowMs: number): AttentionRecord {
      // Looked up first: noticing a known item again (every status call) writes nothing.
      const known = byRef.get(item.kind, item.ref);
      if (known) return decode(known);
      insert.run(
        item.id,
        item.kind,
        item.ref,
        item.transactionId ?? null,
        nowMs,
        item.message,
        item.error === undefined ? null : JSON.stringify(item.error),
        item.details ? JSON.stringify(item.details) : null,
      );
      return decode(byRef.get(item.kind, item.ref)!);
    },
    /** The item of this kind and ref, open or resolved, or null. */
    find(kind: string, ref: string): AttentionRecord | null {
      const r = byRef.get(kind, ref);
      return r ? decode(r) : null;
    },
    list(includeResolved = false): AttentionRecord[] {
      return (includeResolved ? all : open).all().map(decode);
    },
    get(id: string): AttentionRecord | null {
      const r = byId.get(id);
      return r ? decode(r) : null;
    },
    openCount(): number {
      return countOpen.get()?.n ?? 0;
    },
    /** Corrects an open item's figures (the server's answer differs); false when not open. */
    amend(id: string, message: string, details: Record<string, unknown>): boolean {
      return amend.run(message, JSON.stringify(details), id).changes > 0;
    },
    /**
     * Resolves an open item that needs no one any more (the server's answer settled it): no
     * staff, the reason in the comment. False when unknown or already resolved.
     */
    settle(id: string, comment: string, nowMs: number): boolean {
      return settle.run(nowMs, comment, id).changes > 0;
    },
    /** Resolves an open item (and its outbox row); false when unknown or already resolved. */
    resolve(
      id: string,
      by: { id: string; name: string | null },
      comment: string | null,
      nowMs: number,
    ): boolean {
      return db
        .transaction(() => {
          const r = byId.get(id);
          if (!r || r.resolved_at !== null) return false;
          resolve.run(nowMs, by.id, by.name, comment, id);
          if (r.kind === 'outbox-rejected' && r.transaction_id)
            resolveOutbox.run(nowMs, by.id, r.transaction_id);
          return true;
        })
        .immediate();
    },
  };
}

export type Attention = ReturnType<typeof createAttention>;
