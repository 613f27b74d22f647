// The CLI's effects as a port, so each command is a plain function tests can drive.
import { readFile } from 'node:fs/promises';

export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Reads FILE, or standard input when the argument is `-`. */
  readInput(fileOrDash: string): Promise<string>;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export const processIO: CliIO = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  readInput: (file) => (file === '-' ? readStdin() : readFile(file, 'utf8')),
};

/** An in-memory IO for tests: captures output, serves files from a map. */
export function memoryIO(
  files: Record<string, string> = {},
  stdin = '',
): CliIO & {
  out: string;
  err: string;
} {
  const io = {
    out: '',
    err: '',
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
    async readInput(file: string) {
      if (file === '-') return stdin;
      const text = files[file];
      if (text === undefined) {
        throw Object.assign(new Error(`ENOENT: no such file '${file}'`), { code: 'ENOENT' });
      }
      return text;
    },
  };
  return io;
}

/**
 * A refused command line: one line naming what is wrong, then the command's usage, on
 * stderr; exit 2. Every command refuses an unknown flag this way (src/config/flags.ts).
 */
export function refuseUsage(io: CliIO, command: string, message: string, usage: string): number {
  io.stderr(`${command}: ${message}\n${usage}`);
  return 2;
}
