// Patches the page to match a view (vnode.ts) in place: same tag at the same place is
// updated, anything else replaced. Inputs keep focus and caret because the element stays;
// their `value` and `checked` follow the view model (set only when they differ).
import { isElement, type AttrValue, type VElement, type VNode } from './vnode.js';

const FORM_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

function isProp(el: Element, name: string): boolean {
  return FORM_TAGS.has(el.tagName) && (name === 'value' || name === 'checked');
}

function setAttr(el: Element, name: string, value: AttrValue): void {
  if (isProp(el, name)) return;
  if (value === null || value === undefined || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
    return;
  }
  const text = value === true ? '' : String(value);
  if (el.getAttribute(name) !== text) el.setAttribute(name, text);
}

function setProps(el: Element, v: VElement): void {
  if (!FORM_TAGS.has(el.tagName)) return;
  const input = el as HTMLInputElement;
  if ('value' in v.attrs) {
    const value = String(v.attrs.value ?? '');
    if (input.value !== value) input.value = value;
  }
  if ('checked' in v.attrs) {
    const checked = Boolean(v.attrs.checked);
    if (input.checked !== checked) input.checked = checked;
  }
}

function create(doc: Document, v: VNode): Node {
  if (!isElement(v)) return doc.createTextNode(v);
  const el = doc.createElement(v.tag);
  for (const [name, value] of Object.entries(v.attrs)) setAttr(el, name, value);
  for (const c of v.children) el.appendChild(create(doc, c));
  setProps(el, v);
  return el;
}

function sameKind(node: Node, v: VNode): boolean {
  if (!isElement(v)) return node.nodeType === 3;
  if (node.nodeType !== 1) return false;
  const el = node as Element;
  return (
    el.tagName === v.tag.toUpperCase() &&
    (el.getAttribute('type') ?? '') === String(v.attrs.type ?? '') &&
    (el.getAttribute('data-key') ?? '') === String(v.attrs['data-key'] ?? '')
  );
}

function update(node: Node, v: VNode): void {
  if (!isElement(v)) {
    if ((node as Text).data !== v) (node as Text).data = v;
    return;
  }
  const el = node as Element;
  for (const attr of Array.from(el.attributes)) {
    if (!(attr.name in v.attrs)) el.removeAttribute(attr.name);
  }
  for (const [name, value] of Object.entries(v.attrs)) setAttr(el, name, value);
  if (el.tagName !== 'TEXTAREA') patchChildren(el, v.children);
  setProps(el, v);
}

/** Make `parent`'s children match `views`. */
export function patchChildren(parent: Element, views: readonly VNode[]): void {
  const doc = parent.ownerDocument;
  const existing = Array.from(parent.childNodes);
  views.forEach((v, i) => {
    const cur = existing[i];
    if (cur === undefined) parent.appendChild(create(doc, v));
    else if (sameKind(cur, v)) update(cur, v);
    else parent.replaceChild(create(doc, v), cur);
  });
  for (let i = existing.length - 1; i >= views.length; i--) existing[i]!.remove();
}
