// The loyalty-terminal command line: one entry, each command a function over the CliIO port.
import { runAgent } from './agent.js';
import { runCalc } from './calc.js';
import { runCentral } from './central.js';
import { runContract } from './contract.js';
import { runDb } from './db.js';
import { runDevices } from './devices.js';
import { type CliIO, processIO } from './io.js';
import { packageVersion } from '../config/package-info.js';
import { runSecrets } from './secrets.js';
import { runStart } from './start.js';
import { runSync } from './sync.js';

const HELP = `loyalty-terminal: the cash-desk terminal of the loyalty platform

Usage:
  loyalty-terminal --help | -h             this text
  loyalty-terminal --version | -v          the version
  loyalty-terminal start                   run the terminal: the Electron app, or the agent
                                           where the Electron binary is missing
  loyalty-terminal agent [--port P] [--data DIR] [--config FILE]
                                           the headless terminal and its local HTTP API
  loyalty-terminal contract validate TYPE FILE|-
                                           check a payload against the data contract
                                           (exit 0 valid, 1 broken, 2 unknown TYPE or unreadable
                                           FILE); --inbound accepts unknown fields as data from
                                           the central service may carry them
  loyalty-terminal contract types          the TYPE names (also: contract validate --types)

  loyalty-terminal calc FILE|-              run the check engine on a fixture (engine-fixture.md)
  loyalty-terminal central --port P --db FILE [--seed demo]
                                           the sandbox central service
  loyalty-terminal sync status|pull|push   the link to the central service, for operators
  loyalty-terminal db migrate|status|backup|check [--db FILE | --data DIR]
                                           operate the terminal's database
  loyalty-terminal secrets set NAME [--data DIR]
                                           store the agent's secret NAME (central.api_key,
                                           devices.payment.zvt_password), value read from stdin
  loyalty-terminal secrets list            the stored secrets' names, never their values
  loyalty-terminal secrets delete NAME     remove one
  loyalty-terminal devices list            serial ports and the configured devices
  loyalty-terminal devices decode PROTOCOL HEX|-
                                           a captured frame as JSON (msr, scanner,
                                           zvt-serial, zvt-tcp, concert, tls, escpos)
  loyalty-terminal devices sim-books [--data DIR]
                                           the simulated payment units' books (read-only)

Common flags: --data DIR (default ~/.loyalty-terminal), --db FILE, --config FILE.
`;

type Command = (args: string[], io: CliIO) => Promise<number>;

const commands: Record<string, Command> = {
  contract: runContract,
  db: runDb,
  devices: runDevices,
  agent: runAgent,
  calc: runCalc,
  central: runCentral,
  secrets: runSecrets,
  start: runStart,
  sync: runSync,
};

export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout(HELP);
    return first === undefined ? 2 : 0;
  }
  if (first === '--version' || first === '-v') {
    io.stdout(`${packageVersion()}\n`);
    return 0;
  }
  const command = commands[first];
  if (!command) {
    io.stderr(`unknown command "${first}"; see loyalty-terminal --help\n`);
    return 2;
  }
  return command(rest, io);
}
