// The settings slice's reducer.
import { isLang } from '../../i18n.js';
import type { Reducer } from '../../state.js';
import { withMessage } from '../frame/state.js';
import type { SettingsEvent } from './state.js';

export const settings: Reducer<SettingsEvent> = {
  language: (state, event) =>
    isLang(event.value)
      ? { ...state, settings: { ...state.settings, language: event.value } }
      : state,
  synced: (state, event) => {
    const { output } = event;
    const status = state.status ? { ...state.status, sync: output.sync } : null;
    return withMessage(
      { ...state, status, settings: { ...state.settings, lastSync: output } },
      output.error
        ? { kind: 'warning', error: output.error }
        : {
            kind: 'notice',
            key: 'sync.done',
            params: { pushed: output.pushed, pulled: output.pulled },
          },
    );
  },
};
