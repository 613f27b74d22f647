// Signing in with the staff auth code, and opening a shift before the first sale.
import { h, type VElement } from '../vnode.js';
import { button, form, input, section, type Ctx } from './common.js';

/** A refusal that means "too many attempts": the code names a lock-out. */
export function isLockout(code: string): boolean {
  return /lock|too-many|attempts/.test(code);
}

function lockoutText(ctx: Ctx): string | null {
  const e = ctx.state.message?.error;
  if (!e || !isLockout(e.code)) return null;
  const seconds = e.details?.['retry_after_s'];
  return typeof seconds === 'number'
    ? ctx.t('signin.locked-for', { seconds })
    : ctx.t('signin.locked');
}

export function signInScreen(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const locked = lockoutText(ctx);
  return section(
    t('signin.title'),
    'sign-in',
    form(
      'sign-in',
      'sign-in-form',
      input(ctx, {
        testid: 'sign-in-code',
        field: 'auth-code',
        label: t('signin.code'),
        type: 'password',
        inputmode: 'numeric',
        autocomplete: 'off',
      }),
      locked
        ? h('p', { class: 'error', role: 'alert', 'data-testid': 'sign-in-lockout' }, locked)
        : null,
      h(
        'div',
        { class: 'actions big' },
        button({
          testid: 'sign-in-submit',
          action: 'sign-in',
          submit: true,
          label: t('signin.submit'),
          kind: 'primary',
          disabled: state.busy !== null,
        }),
      ),
    ),
  );
}

export function shiftOpenScreen(ctx: Ctx): VElement {
  const { t, state } = ctx;
  return section(
    t('shift.title'),
    'shift-open',
    h('p', null, t('shift.none')),
    form(
      'shift-open',
      'shift-open-form',
      input(ctx, {
        testid: 'shift-opening-cash',
        field: 'opening-cash',
        label: t('shift.opening-cash'),
        inputmode: 'decimal',
      }),
      h(
        'div',
        { class: 'actions big' },
        button({
          testid: 'shift-open-submit',
          action: 'shift-open',
          submit: true,
          label: t('shift.open'),
          kind: 'primary',
          disabled: state.busy !== null,
        }),
      ),
    ),
  );
}
