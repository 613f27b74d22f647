// The shift report's print (X during a shift, Z at its close): a title, label/value rows and
// plain lines, already formatted by the terminal (the printer never computes money), then the
// cut. A reprint is marked COPY. No drawer pulse: a report moves no cash.
import { concatBytes } from '../bytes.js';
import * as c from './commands.js';

export type ReportRow = { label: string; value: string } | { text: string };

export interface ReportDocument {
  title: string;
  copy: boolean;
  rows: readonly ReportRow[];
}

/** A label and a right-aligned value in `width` columns; the label is cut to make room. */
function columns(label: string, value: string, width: number): string {
  const room = Math.max(0, width - value.length - 1);
  const left = label.length > room ? label.slice(0, room) : label;
  return `${left}${' '.repeat(Math.max(1, width - left.length - value.length))}${value}`;
}

export function renderShiftReport(doc: ReportDocument, width = 42): Uint8Array {
  const out: Uint8Array[] = [c.init(), c.align('center'), c.bold(true)];
  if (doc.copy) out.push(c.line('COPY'));
  out.push(c.line(doc.title.slice(0, width)), c.bold(false), c.align('left'));
  for (const r of doc.rows)
    out.push(c.line('text' in r ? r.text.slice(0, width) : columns(r.label, r.value, width)));
  out.push(c.feed(), c.feed(), c.feed(), c.cut());
  return concatBytes(out);
}
