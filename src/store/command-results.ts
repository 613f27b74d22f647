// Answers of idempotent commands (0003): sale-process and sale-refund by their client-made
// transaction id, sale-cancel by the sale's id. The request's hash is kept beside the answer;
// a repeat with the same hash gets the answer, another hash is an idempotency conflict.
//
// One transaction with its answer (docs/terminal.md): an answer is checked against its
// command's output schema before it is kept, inside the transaction of the command's writes,
// so an answer that cannot be given rolls the writes back instead of following a commit.
// Read back through the same schema (stored-json.ts): the command's output, or for the fuel
// records kept beside the answers, their schema in contract/stored.ts.
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import {
  commands,
  isCommandName,
  type CommandName,
  type CommandOutput,
} from '../contract/commands.js';
import { problemsOf } from '../contract/problems.js';
import { fuelRecords, type FuelRecordKind } from '../contract/stored.js';
import { readStored, readStoredOrThrow, type StoredRead } from './stored-json.js';

/** What is kept under a key: a command's answer, or a fuel record. */
export type KeptKind = CommandName | FuelRecordKind;
export type KeptOf<K extends KeptKind> = K extends CommandName
  ? CommandOutput<K>
  : K extends FuelRecordKind
    ? z.output<(typeof fuelRecords)[K]>
    : never;

export interface StoredResult<T> {
  readonly requestHash: string;
  readonly response: T;
  readonly createdAt: number;
}

/** A kept answer read leniently: `read` says why it no longer reads, instead of throwing. */
export interface KeptRead<T> {
  readonly requestHash: string;
  readonly read: StoredRead<T>;
  readonly createdAt: number;
}

const isFuelRecord = (kind: string): kind is FuelRecordKind => Object.hasOwn(fuelRecords, kind);

/** The schema of what is kept under `kind`; none for a name that is neither. */
function keptSchema(kind: string): z.ZodType | undefined {
  if (isCommandName(kind)) return commands[kind].output;
  return isFuelRecord(kind) ? fuelRecords[kind] : undefined;
}

/** Runs on every answer before it is given or kept; throws to refuse it (and roll back). */
export type AnswerCheck = (command: string, answer: unknown) => void;

/** An answer that breaks its command's output schema: a bug, never committed. */
class AnswerRefused extends Error {
  readonly command: string;
  readonly problems: ReadonlyArray<{ path: string; message: string }>;
  constructor(command: string, problems: ReadonlyArray<{ path: string; message: string }>) {
    const first = problems[0];
    super(
      `the ${command} answer breaks its schema${first ? ` at ${first.path}: ${first.message}` : ''}`,
    );
    this.name = 'AnswerRefused';
    this.command = command;
    this.problems = problems;
  }
}

/** The command's output schema decides, or the fuel record's. */
function checkAgainstSchema(command: string, answer: unknown): void {
  const out = keptSchema(command)?.safeParse(answer);
  if (out && !out.success) throw new AnswerRefused(command, problemsOf(out.error));
}

export function createCommandResults(db: Database.Database) {
  const get = db.prepare<
    [string, string],
    { request_hash: string; response: string; created_at: number }
  >('SELECT request_hash, response, created_at FROM command_result WHERE command = ? AND key = ?');
  const put = db.prepare(
    `INSERT INTO command_result (command, key, request_hash, response, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (command, key) DO NOTHING`,
  );
  const checks: AnswerCheck[] = [checkAgainstSchema];
  const check = (command: string, answer: unknown): void => {
    for (const c of [...checks]) c(command, answer);
  };
  // The schema is the one `kind` names, so its output is KeptOf<kind>.
  const schemaOf = <K extends KeptKind>(kind: K) => keptSchema(kind) as z.ZodType<KeptOf<K>>;
  return {
    /** Whether anything is kept under the key (nothing is read). */
    has(kind: KeptKind, key: string): boolean {
      return get.get(kind, key) !== undefined;
    },
    /** The kept answer; one that no longer passes its schema throws `invalid-record`. */
    get<K extends KeptKind>(kind: K, key: string): StoredResult<KeptOf<K>> | null {
      const r = get.get(kind, key);
      if (!r) return null;
      const row = `command_result ${kind} ${key}`;
      return {
        requestHash: r.request_hash,
        response: readStoredOrThrow(schemaOf(kind), r.response, row),
        createdAt: r.created_at,
      };
    },
    /** The kept answer, or why it no longer reads (for a caller that answers that instead). */
    read<K extends KeptKind>(kind: K, key: string): KeptRead<KeptOf<K>> | null {
      const r = get.get(kind, key);
      return r
        ? {
            requestHash: r.request_hash,
            read: readStored(schemaOf(kind), r.response, 'answer'),
            createdAt: r.created_at,
          }
        : null;
    },
    /**
     * Keeps the first answer; a second put of the same key changes nothing. Throws (the
     * caller's transaction rolls back) when the answer fails a check.
     */
    put(
      command: KeptKind,
      key: string,
      requestHash: string,
      response: unknown,
      nowMs: number,
    ): void {
      check(command, response);
      put.run(command, key, requestHash, JSON.stringify(response), nowMs);
    },
    /**
     * Checks an answer that is given without being kept (shift-open, shift-close, ...), inside
     * the command's transaction; throws when it cannot be given.
     */
    check,
    /**
     * Adds a check to every answer, before it is given or kept: the port through which a test
     * injects a failure after a command's writes. Returns its removal.
     */
    onAnswer(extra: AnswerCheck): () => void {
      checks.push(extra);
      return () => {
        const at = checks.indexOf(extra);
        if (at >= 0) checks.splice(at, 1);
      };
    },
  };
}

export type CommandResults = ReturnType<typeof createCommandResults>;
