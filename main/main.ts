// The Electron main process, kept thin: it wires the pieces the other modules of main/
// define (and test) and holds no decisions of its own. One window, sandboxed, loading
// app://terminal/ (the renderer's build); the workflow (createTerminal) started under the
// data directory's lock, as the agent's `attach` does; one IPC channel for every command,
// validated by the command map; events forwarded to the page; secrets behind safeStorage.
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  protocol,
  safeStorage,
  screen,
  session,
} from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEventHub } from '../src/agent/events.js';
import { stubHandlers } from '../src/agent/stub-handlers.js';
import { startEmbeddedCentral } from '../src/central/embedded.js';
import { V8_FLAGS } from '../src/config/runtime-flags.js';
import { DATA_FLAGS, parseKnownFlags } from '../src/config/flags.js';
import { resolveSettings } from '../src/config/settings.js';
import { commandNames } from '../src/contract/commands.js';
import {
  createCommandMap,
  trustedOutputs,
  type CommandContext,
  type Handler,
} from '../src/terminal/command-map.js';
import { acquireDataDirLock } from '../src/terminal/lock.js';
import { createFileLogger } from '../src/terminal/log.js';
import { createTerminal } from '../src/terminal/terminal.js';
import { appResponse } from './app-protocol.js';
import { APP_ORIGIN, APP_SCHEME, CALL_CHANNEL, EVENT_CHANNEL } from './channels.js';
import { hardenContents, hardenSession } from './harden.js';
import { createCallHandler } from './ipc.js';
import { safeStorageSeal, warnIfUnprotected } from './secrets.js';
import { displayWindowOptions, windowOptions } from './window-options.js';

// Must happen before `ready`: the till's V8 flags (src/config/runtime-flags.ts).
app.commandLine.appendSwitch('js-flags', V8_FLAGS.join(' '));

// Must happen before `ready`: app:// behaves like https (a secure, standard origin).
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

const here = fileURLToPath(new URL('.', import.meta.url)); // dist/main/

async function fail(title: string, message: string): Promise<void> {
  await app.whenReady();
  dialog.showErrorBox(title, message);
  app.exit(1);
}

async function runMain(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // Electron's and Chromium's own switches share argv: only --data and --config are ours.
  const parsed = parseKnownFlags(process.argv.slice(1), DATA_FLAGS);
  if (!parsed.ok) return fail('Loyalty Terminal', parsed.message);
  // As the agent resolves them; the secret store is DIR/secrets.safe.json, sealed by the OS.
  const resolved = await resolveSettings(parsed.values, { seal: safeStorageSeal(safeStorage) });
  if (!resolved.ok) return fail('Loyalty Terminal: configuration', resolved.message);
  const { config, dataDir, secrets } = resolved.settings;
  const locked = acquireDataDirLock(dataDir);
  if (!locked.ok) return fail('Loyalty Terminal is already running', locked.error.message);
  const log = createFileLogger({ dir: join(dataDir, 'logs'), name: 'electron' });
  const appInfo = { name: app.getName(), version: app.getVersion() };
  const events = createEventHub();

  // safeStorage decrypts only after `ready` (Linux), and the workflow reads its secrets first.
  await app.whenReady();
  warnIfUnprotected(safeStorage, log);
  // The workflow starts only under the lock, so a second instance never opens the store.
  let terminal: Awaited<ReturnType<typeof createTerminal>>;
  try {
    terminal = await createTerminal({
      dataDir,
      config,
      secrets,
      log: log.child({ part: 'terminal' }),
      app: appInfo,
      emit: (name, payload) => events.emit(name, payload),
      embeddedCentral: startEmbeddedCentral,
    });
  } catch (e) {
    log.error('the terminal could not start', { err: e });
    locked.lock.release();
    log.close();
    return fail('Loyalty Terminal could not start', (e as Error).message);
  }

  // will-quit waits for the store, the sync loops and the devices to close, then lets go.
  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    void terminal
      .close()
      .catch((e: unknown) => log.error('closing the terminal failed', { err: e }))
      .finally(() => {
        closed = true;
        locked.lock.release();
        log.close();
        app.quit();
      });
  });

  const commands = createCommandMap<CommandContext>({ log, trusted: trustedOutputs(process.env) });
  const stubs = stubHandlers({ config, app: appInfo });
  for (const name of commandNames) {
    const handler = (terminal.handlers[name] ?? stubs[name]) as Handler<typeof name>;
    commands.register(name, handler);
  }

  app.on('web-contents-created', (_event, contents) => hardenContents(contents, log));
  app.on('window-all-closed', () => app.quit());

  hardenSession(session.defaultSession);
  const rendererDir = join(app.getAppPath(), 'renderer', 'dist');
  protocol.handle(APP_SCHEME, (request) => appResponse(request.url, rendererDir));
  ipcMain.handle(CALL_CHANNEL, createCallHandler({ commands, log }));

  const window = new BrowserWindow(
    windowOptions({ preload: join(here, 'preload.cjs'), devTools: !app.isPackaged }),
  );
  window.once('ready-to-show', () => window.show());
  const unsubscribe = events.subscribe((name, payload) => {
    if (!window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, name, payload);
  });
  window.on('closed', unsubscribe);
  app.on('second-instance', () => {
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  await window.loadURL(`${APP_ORIGIN}/`);
  log.info('window loaded', { data_dir: dataDir, renderer: rendererDir });
  if (config.ui.customer_display) await openCustomerDisplay(events);
}

/** The second screen facing the customer: display.html, fed the same events as the till. */
async function openCustomerDisplay(events: ReturnType<typeof createEventHub>): Promise<void> {
  const display = new BrowserWindow(
    displayWindowOptions(
      { preload: join(here, 'preload.cjs'), devTools: !app.isPackaged },
      screen.getAllDisplays(),
      screen.getPrimaryDisplay().id,
    ),
  );
  display.once('ready-to-show', () => display.show());
  const unsubscribe = events.subscribe((name, payload) => {
    if (!display.isDestroyed()) display.webContents.send(EVENT_CHANNEL, name, payload);
  });
  display.on('closed', unsubscribe);
  await display.loadURL(`${APP_ORIGIN}/display.html`);
}

runMain().catch((e: unknown) =>
  fail('Loyalty Terminal failed to start', (e as Error).stack ?? String(e)),
);
