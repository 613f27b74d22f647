// The screen's own settings: its language (kept in localStorage by the controller), and the
// last sync round run from it.
import type { Lang } from '../../i18n.js';
import type { SyncNowResult } from '../../types.js';

export interface SettingsState {
  language: Lang;
  lastSync: SyncNowResult | null;
}

export function initialSettings(language: Lang): SettingsState {
  return { language, lastSync: null };
}

export type SettingsEvent =
  /** A language picked; one the screen has no table for is ignored. */
  { type: 'language'; value: string } | { type: 'synced'; output: SyncNowResult };
