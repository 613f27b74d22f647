// The views' output as plain elements, for tests in Node without a DOM: every view is a pure
// function component (no hooks) or a class whose render reads only its props (one that skips
// re-renders), so expanding a Preact vnode is rendering each component with its props until
// only elements and text are left. An element keeps its props (attributes
// and handlers) and its key.
import type { ComponentChildren, VNode } from 'preact';

export interface El {
  tag: string;
  /** Every prop but `children`: attributes as written, and the `on…` handlers. */
  attrs: Readonly<Record<string, unknown>>;
  /** Its key, or the key of the component that rendered it. */
  key: unknown;
  children: readonly Node[];
}

export type Node = El | string;

function isVNode(v: object): v is VNode<Record<string, unknown>> {
  return 'type' in v && 'props' in v;
}

interface ClassComponent {
  new (props: object): { render(props: object): ComponentChildren };
}

/** What a component renders with `props`: a function's answer, or a class instance's render. */
function renderOf(type: object, props: object): ComponentChildren {
  const proto = (type as { prototype?: { render?: unknown } }).prototype;
  if (typeof proto?.render === 'function') {
    const Made = type as ClassComponent;
    return new Made(props).render(props);
  }
  return (type as (props: object) => ComponentChildren)(props);
}

/** Expands what a component returns into elements and text. */
export function expand(children: ComponentChildren): Node[] {
  if (children === null || children === undefined || typeof children === 'boolean') return [];
  if (typeof children !== 'object') return [String(children)];
  if (Array.isArray(children)) return children.flatMap((c: ComponentChildren) => expand(c));
  if (!isVNode(children)) throw new Error(`not a vnode: ${JSON.stringify(children)}`);
  const { type, props } = children;
  if (typeof type === 'function') {
    const out = expand(renderOf(type, props));
    // a keyed component is its element's key: Preact matches it by that key on a re-render
    const [only] = out;
    if (children.key == null || out.length !== 1 || typeof only !== 'object') return out;
    return [{ ...only, key: only.key ?? children.key }];
  }
  const { children: inner, ...attrs } = props as { children?: ComponentChildren };
  return [{ tag: type, attrs, key: children.key, children: expand(inner) }];
}

/** The one element a view renders. */
export function tree(v: VNode): El {
  const [root, ...rest] = expand(v);
  if (root === undefined || typeof root === 'string' || rest.length > 0)
    throw new Error('the view renders more or less than one element');
  return root;
}

/** Every element of a tree, depth first. */
export function elements(node: Node): El[] {
  if (typeof node === 'string') return [];
  return [node, ...node.children.flatMap(elements)];
}

/** The text a tree shows. */
export function textOf(node: Node): string {
  return typeof node === 'string' ? node : node.children.map(textOf).join('');
}

/** The element with this data-testid, if any. */
export function byTestId(node: Node, testid: string): El | undefined {
  return elements(node).find((e) => e.attrs['data-testid'] === testid);
}
