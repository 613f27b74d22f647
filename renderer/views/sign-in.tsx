// Signing in with the staff auth code, and opening a shift before the first sale; the number
// pad beside each, so a touch till needs no keyboard for either.
import { Button, Form, Input, Section, type Ctx } from './common.js';
import { Keypad } from './goods.js';

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

export function SignInScreen({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const locked = lockoutText(ctx);
  return (
    <Section title={t('signin.title')} testid="sign-in" cls="beside-pad">
      <Form ctx={ctx} submit={{ type: 'sign-in' }} testid="sign-in-form">
        <Input
          ctx={ctx}
          testid="sign-in-code"
          field="auth-code"
          label={t('signin.code')}
          type="password"
          inputmode="numeric"
          autocomplete="off"
        />
        {locked ? (
          <p class="error" role="alert" data-testid="sign-in-lockout">
            {locked}
          </p>
        ) : null}
        <div class="actions big">
          <Button
            ctx={ctx}
            testid="sign-in-submit"
            submit
            label={t('signin.submit')}
            kind="primary"
            disabled={state.busy !== null}
          />
        </div>
      </Form>
      <Keypad ctx={ctx} />
    </Section>
  );
}

export function ShiftOpenScreen({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  return (
    <Section title={t('shift.title')} testid="shift-open" cls="beside-pad">
      <p>{t('shift.none')}</p>
      <Form ctx={ctx} submit={{ type: 'shift-open' }} testid="shift-open-form">
        <Input
          ctx={ctx}
          testid="shift-opening-cash"
          field="opening-cash"
          label={t('shift.opening-cash')}
          inputmode="decimal"
        />
        <div class="actions big">
          <Button
            ctx={ctx}
            testid="shift-open-submit"
            submit
            label={t('shift.open')}
            kind="primary"
            disabled={state.busy !== null}
          />
        </div>
      </Form>
      <Keypad ctx={ctx} />
    </Section>
  );
}
