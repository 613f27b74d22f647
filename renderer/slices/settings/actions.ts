// The settings' actions: the language, and a sync round now (also in the header, F9).
import { send, type Performers } from '../../till.js';

export type SettingsAction = { type: 'language'; value: string } | { type: 'sync-now' };

export const settingsActions: Performers<SettingsAction> = {
  language: send,
  'sync-now': async (till) => {
    await till.run('sync-now', {}, (output) => ({ type: 'synced', output }));
  },
};
