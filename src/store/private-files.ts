// The data directory is the till's own (docs/store.md, "File modes"): the directory and every
// directory in it 0700, every file 0600, whoever's umask started the process and whatever
// modes an older version left. SQLite gives a database's -wal and -shm the database file's
// mode, so a database created 0600 keeps its side files 0600 too. On Windows, modes are not
// POSIX: nothing to do.
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const posix = process.platform !== 'win32';

/** Creates `dir` (and parents) 0700; narrows `dir` itself to 0700 when it exists wider. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (posix && (lstatSync(dir).mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}

/** Narrows an existing file to 0600; absent: nothing. */
export function narrowFile(file: string): void {
  if (!posix) return;
  try {
    if ((lstatSync(file).mode & 0o777) !== 0o600) chmodSync(file, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/**
 * Makes `file` exist with mode 0600 before SQLite opens it (SQLite would create it 0644 and
 * its side files after it); an existing one, and its side files, are narrowed.
 */
export function privateDatabaseFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) narrowFile(f);
}

/** Every directory under `dir` (itself included) to 0700, every file to 0600; links left. */
function privateTree(dir: string): void {
  privateDir(dir);
  if (!posix) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) privateTree(path);
    else if (entry.isFile()) narrowFile(path);
  }
}

/** What the terminal keeps at the top of its data directory (nothing else there is touched). */
const OWN_FILE =
  /^(?:(?:terminal|sandbox-central)\.sqlite(?:-wal|-shm|-journal)?|secrets\.json|secrets\.safe\.json|agent-token|terminal\.lock|config\.json)$/;
const OWN_DIRS = new Set(['backups', 'logs', 'simulators', 'quarantine', 'export']);

/**
 * The data directory 0700 with what the terminal keeps in it: its files 0600, its folders
 * (and everything in them) 0700/0600. Other entries are left alone: a `--data` pointed at a
 * shared folder must not have every file in it narrowed.
 */
export function privateDataDir(dir: string): void {
  privateDir(dir);
  if (!posix) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && OWN_DIRS.has(entry.name)) privateTree(path);
    else if (entry.isFile() && OWN_FILE.test(entry.name)) narrowFile(path);
  }
}
