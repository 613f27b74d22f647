// One way to turn a zod failure into problems a person can act on: each names the field by
// its path (`check_items[0].quantity`), and an unknown field is named itself.
import type { z } from 'zod';

export interface Problem {
  path: string;
  message: string;
}

/** `['check_items', 0, 'quantity']` -> `check_items[0].quantity`; the root is `(root)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(root)';
}

/** How many problems an answer or a log line lists: the rest are only counted. */
export const PROBLEMS_LISTED = 20;

/**
 * The first `max` problems and how many more there are: 20,000 bad lines must not make a
 * megabyte answer (or log line). The first ones are enough to fix the request.
 */
export function listedProblems(
  error: z.ZodError,
  max = PROBLEMS_LISTED,
): { problems: Problem[]; more: number } {
  const all = problemsOf(error);
  return { problems: all.slice(0, max), more: Math.max(0, all.length - max) };
}

export function problemsOf(error: z.ZodError): Problem[] {
  const problems: Problem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        problems.push({ path: formatPath([...issue.path, key]), message: 'unknown field' });
      }
    } else {
      problems.push({ path: formatPath(issue.path), message: issue.message });
    }
  }
  return problems;
}
