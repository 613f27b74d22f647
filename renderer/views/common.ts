// Building blocks every screen uses: labelled inputs, buttons and value rows, each with a
// stable data-testid (README.md lists them) and the attributes app.ts listens for:
// `data-action` (+ `data-arg`) on buttons, `data-field` on inputs, `data-submit` on forms.
import type { ActionName } from '../actions.js';
import type { Translate } from '../i18n.js';
import type { DateStyle, NumberStyle } from '../format.js';
import type { State } from '../state.js';
import { h, type Child, type VElement } from '../vnode.js';

export interface Ctx {
  state: State;
  t: Translate;
  num: NumberStyle;
  dates: DateStyle;
}

export interface ButtonSpec {
  testid: string;
  action: ActionName;
  arg?: string;
  label: string;
  kind?: 'primary' | 'danger' | 'plain';
  disabled?: boolean;
  /** Shortcut shown on the button. */
  hint?: string;
  pressed?: boolean;
  submit?: boolean;
  title?: string;
}

export function button(b: ButtonSpec): VElement {
  return h(
    'button',
    {
      type: b.submit ? 'submit' : 'button',
      class: `btn ${b.kind ?? 'plain'}`,
      'data-testid': b.testid,
      'data-action': b.submit ? null : b.action,
      'data-arg': b.arg ?? null,
      disabled: b.disabled ?? false,
      'aria-pressed': b.pressed === undefined ? null : String(b.pressed),
      title: b.title ?? null,
    },
    b.label,
    b.hint ? h('kbd', null, b.hint) : null,
  );
}

export interface InputSpec {
  testid: string;
  field: string;
  label: string;
  type?: 'text' | 'password' | 'search';
  /** `decimal` opens a number pad on touch screens. */
  inputmode?: 'decimal' | 'numeric' | 'text';
  autocomplete?: string;
  disabled?: boolean;
  placeholder?: string;
}

/** The field's error under it, announced to screen readers. */
function fieldError(ctx: Ctx, field: string, testid: string): VElement | null {
  const key = ctx.state.fieldErrors[field];
  return key
    ? h(
        'span',
        {
          class: 'field-error',
          id: `${testid}-error`,
          'data-testid': `${testid}-error`,
          role: 'alert',
        },
        ctx.t(key),
      )
    : null;
}

export function input(ctx: Ctx, s: InputSpec): VElement {
  const invalid = Boolean(ctx.state.fieldErrors[s.field]);
  return h(
    'div',
    { class: `field${invalid ? ' invalid' : ''}` },
    h('label', { for: s.testid }, s.label),
    h('input', {
      id: s.testid,
      type: s.type ?? 'text',
      'data-testid': s.testid,
      'data-field': s.field,
      value: ctx.state.form[s.field] ?? '',
      inputmode: s.inputmode ?? null,
      autocomplete: s.autocomplete ?? 'off',
      spellcheck: 'false',
      disabled: s.disabled ?? false,
      placeholder: s.placeholder ?? null,
      'aria-invalid': invalid ? 'true' : null,
      'aria-describedby': invalid ? `${s.testid}-error` : null,
    }),
    fieldError(ctx, s.field, s.testid),
  );
}

export function select(
  ctx: Ctx,
  s: {
    testid: string;
    field: string;
    label: string;
    options: readonly (readonly [string, string])[];
    disabled?: boolean;
  },
): VElement {
  return h(
    'div',
    { class: 'field' },
    h('label', { for: s.testid }, s.label),
    h(
      'select',
      {
        id: s.testid,
        'data-testid': s.testid,
        'data-field': s.field,
        value: ctx.state.form[s.field] ?? '',
        disabled: s.disabled ?? false,
      },
      s.options.map(([value, label]) => h('option', { value }, label)),
    ),
    fieldError(ctx, s.field, s.testid),
  );
}

export function checkbox(s: {
  testid: string;
  action: ActionName;
  arg?: string;
  label: string;
  checked: boolean;
  disabled?: boolean;
}): VElement {
  return h(
    'label',
    { class: 'check' },
    h('input', {
      type: 'checkbox',
      'data-testid': s.testid,
      'data-action': s.action,
      'data-arg': s.arg ?? null,
      checked: s.checked,
      disabled: s.disabled ?? false,
    }),
    h('span', null, s.label),
  );
}

/** A labelled read-only value (`dt`/`dd`). */
export function row(label: string, value: string, testid: string, cls?: string | null): VElement[] {
  return [h('dt', null, label), h('dd', { 'data-testid': testid, class: cls ?? null }, value)];
}

export function section(title: string, testid: string, ...children: Child[]): VElement {
  const headingId = `${testid}-title`;
  return h(
    'section',
    { class: 'panel', 'data-testid': testid, 'aria-labelledby': headingId },
    h('h2', { id: headingId }, title),
    ...children,
  );
}

export function form(submit: ActionName, testid: string, ...children: Child[]): VElement {
  return h('form', { 'data-submit': submit, 'data-testid': testid, novalidate: true }, ...children);
}
