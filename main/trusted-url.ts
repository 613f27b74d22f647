// Whether a URL is our own page: parsed and compared part by part, never by `includes()`
// (the lesson of Actual Budget's trusted-url.ts).
import { APP_HOST, APP_SCHEME } from './channels.js';

export function isTrustedUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return (
    url.protocol === `${APP_SCHEME}:` &&
    url.host === APP_HOST &&
    url.username === '' &&
    url.password === ''
  );
}
