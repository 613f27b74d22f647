// A tiny virtual DOM: views are pure functions from the view model to these plain objects,
// so they can be checked in Node; dom.ts turns them into elements and patches the page in
// place (focus, caret and scroll survive a re-render). Behaviour is attached by
// `data-action` attributes and one delegated listener, never by closures on elements.

export type AttrValue = string | number | boolean | null | undefined;
export type Attrs = Readonly<Record<string, AttrValue>>;

export interface VElement {
  readonly tag: string;
  readonly attrs: Attrs;
  readonly children: readonly VNode[];
}

export type VNode = VElement | string;

export type Child = VNode | readonly Child[] | null | undefined | false;

function flatten(children: readonly Child[], out: VNode[]): VNode[] {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (typeof c === 'string' || !Array.isArray(c)) out.push(c as VNode);
    else flatten(c, out);
  }
  return out;
}

export function h(tag: string, attrs: Attrs | null = null, ...children: Child[]): VElement {
  return { tag, attrs: attrs ?? {}, children: flatten(children, []) };
}

export function isElement(node: VNode): node is VElement {
  return typeof node !== 'string';
}

/** Every element of a tree, depth first (for tests and focus look-ups). */
export function elements(node: VNode): VElement[] {
  if (!isElement(node)) return [];
  return [node, ...node.children.flatMap(elements)];
}

/** The text a tree shows. */
export function textOf(node: VNode): string {
  return isElement(node) ? node.children.map(textOf).join('') : node;
}

/** The element with this data-testid, if any. */
export function byTestId(node: VNode, testid: string): VElement | undefined {
  return elements(node).find((e) => e.attrs['data-testid'] === testid);
}
