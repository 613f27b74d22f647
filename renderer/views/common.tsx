// Building blocks every screen uses: labelled inputs, buttons and value rows, each with a
// stable data-testid (README.md lists them). A button names the Action it asks for, a form
// the Action its submit asks for, and an input reports what is typed as a `field` action:
// every handler hands a typed Action to `ctx.act`, nothing is read back from the page.
// No `style` anywhere (the CSP refuses inline styles): every look is a class of styles.css.
import type { ComponentChildren } from 'preact';
import type { Action } from '../actions.js';
import type { DateStyle, NumberStyle } from '../format.js';
import type { Translate } from '../i18n.js';
import type { FieldName, State } from '../state.js';

/**
 * What every view is given: the state, the language's words, numbers and dates (in the POS's
 * zone), where actions go.
 */
export interface Ctx {
  state: State;
  t: Translate;
  num: NumberStyle;
  dates: DateStyle;
  act: (action: Action) => void;
}

interface ButtonLook {
  ctx: Ctx;
  testid: string;
  label: string;
  kind?: 'primary' | 'danger' | 'plain';
  disabled?: boolean;
  /** Shortcut shown on the button. */
  hint?: string;
  pressed?: boolean;
  title?: string;
}

/** A button asks for its own action, or submits its form (which asks for the form's). */
export type ButtonProps = ButtonLook & ({ does: Action; submit?: never } | { submit: true });

export function Button(p: ButtonProps) {
  const does = 'does' in p ? p.does : undefined;
  return (
    <button
      type={does ? 'button' : 'submit'}
      class={`btn ${p.kind ?? 'plain'}`}
      data-testid={p.testid}
      disabled={p.disabled ?? false}
      aria-pressed={p.pressed}
      title={p.title}
      onClick={
        does
          ? (e) => {
              // a button inside a clickable row asks for its own action only
              e.stopPropagation();
              p.ctx.act(does);
            }
          : undefined
      }
    >
      {p.label}
      {p.hint ? <kbd>{p.hint}</kbd> : null}
    </button>
  );
}

/** The field's error under it, announced to screen readers. */
function FieldError(p: { ctx: Ctx; field: FieldName; testid: string }) {
  const key = p.ctx.state.fieldErrors[p.field];
  if (!key) return null;
  const id = `${p.testid}-error`;
  return (
    <span class="field-error" id={id} data-testid={id} role="alert">
      {p.ctx.t(key)}
    </span>
  );
}

export interface InputProps {
  ctx: Ctx;
  testid: string;
  field: FieldName;
  label: string;
  type?: 'text' | 'password';
  /** `decimal` opens a number pad on touch screens. */
  inputmode?: 'decimal' | 'numeric' | 'text';
  autocomplete?: string;
  disabled?: boolean;
  placeholder?: string;
}

export function Input(p: InputProps) {
  const { ctx, field, testid } = p;
  const invalid = Boolean(ctx.state.fieldErrors[field]);
  return (
    <div class={invalid ? 'field invalid' : 'field'}>
      <label for={testid}>{p.label}</label>
      <input
        id={testid}
        // spread per kind: Preact's types tie an input's `type` to the roles it may take
        {...(p.type === 'password' ? { type: 'password' as const } : { type: 'text' as const })}
        data-testid={testid}
        value={ctx.state.form[field] ?? ''}
        inputmode={p.inputmode}
        autocomplete={p.autocomplete ?? 'off'}
        spellcheck={false}
        disabled={p.disabled ?? false}
        placeholder={p.placeholder}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={invalid ? `${testid}-error` : undefined}
        onInput={(e) => ctx.act({ type: 'field', name: field, value: e.currentTarget.value })}
        onFocus={() => ctx.act({ type: 'field-focused', name: field })}
      />
      <FieldError ctx={ctx} field={field} testid={testid} />
    </div>
  );
}

export interface SelectProps {
  ctx: Ctx;
  testid: string;
  label: string;
  options: readonly (readonly [value: string, label: string])[];
  value: string;
  /** What choosing an option asks for. */
  onPick: (value: string) => Action;
  /** The field whose error shows under it. */
  field?: FieldName;
  disabled?: boolean;
}

export function Select(p: SelectProps) {
  const { ctx, testid } = p;
  return (
    <div class="field">
      <label for={testid}>{p.label}</label>
      <select
        id={testid}
        data-testid={testid}
        value={p.value}
        disabled={p.disabled ?? false}
        onChange={(e) => ctx.act(p.onPick(e.currentTarget.value))}
      >
        {p.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      {p.field ? <FieldError ctx={ctx} field={p.field} testid={testid} /> : null}
    </div>
  );
}

/** A select that writes a form field. */
export function FieldSelect(
  p: Omit<SelectProps, 'value' | 'onPick' | 'field'> & { field: FieldName },
) {
  const { field } = p;
  return (
    <Select
      {...p}
      value={p.ctx.state.form[field] ?? ''}
      onPick={(value) => ({ type: 'field', name: field, value })}
    />
  );
}

export function Checkbox(p: {
  ctx: Ctx;
  testid: string;
  does: Action;
  label: string;
  checked: boolean;
  disabled?: boolean;
}) {
  return (
    <label class="check">
      <input
        type="checkbox"
        data-testid={p.testid}
        checked={p.checked}
        disabled={p.disabled ?? false}
        onClick={() => p.ctx.act(p.does)}
      />
      <span>{p.label}</span>
    </label>
  );
}

/** A labelled read-only value (`dt`/`dd`). */
export function Row(p: { label: string; value: string; testid: string; cls?: string | null }) {
  return (
    <>
      <dt>{p.label}</dt>
      <dd data-testid={p.testid} class={p.cls ?? undefined}>
        {p.value}
      </dd>
    </>
  );
}

export function Section(p: {
  title: string;
  testid: string;
  /** Its place in the screen's layout (styles.css, "Layout"): `screen`, `head`, `body`. */
  cls?: string;
  children?: ComponentChildren;
}) {
  const headingId = `${p.testid}-title`;
  return (
    <section
      class={p.cls ? `panel ${p.cls}` : 'panel'}
      data-testid={p.testid}
      aria-labelledby={headingId}
    >
      <h2 id={headingId}>{p.title}</h2>
      {p.children}
    </section>
  );
}

/** A form: Enter in any of its fields, or its submit button, asks for `submit`. */
export function Form(p: {
  ctx: Ctx;
  submit: Action;
  testid: string;
  /** Its place in the screen's layout (styles.css, "Layout"). */
  cls?: string;
  children?: ComponentChildren;
}) {
  return (
    <form
      data-testid={p.testid}
      class={p.cls}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        p.ctx.act(p.submit);
      }}
    >
      {p.children}
    </form>
  );
}
