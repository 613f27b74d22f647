// Largest-remainder allocation (engine.md 1): an amount that belongs to the whole check is
// spread over lines in integer minor units so the parts always sum to the whole.

const SMALL = 2n ** 31n;

/**
 * Splits `total` minor units in proportion to `weights`. Each part gets the floor of its
 * share; the units left over go one each to the largest fractional remainders, ties to the
 * earlier index. Weights are >= 0; when they are all zero nothing is allocated. A negative
 * total is allocated as the mirror of its absolute value, so allocation is symmetric.
 */
export function allocate(total: bigint, weights: readonly bigint[]): bigint[] {
  if (total < 0n) return allocate(-total, weights).map((p) => -p);
  // Sums carried from one step to the next live in BigInt64Array slots while they fit in
  // 64 bits: a bigint local carried by a loop is a new heap BigInt at every step, a slot
  // wrapped in BigInt.asIntN(64, ...) is a machine integer. acc[0]: the sum of the weights
  // below 2^31 (fewer than 2^31 of them: below 2^62), acc[1]: the parts given.
  const acc = new BigInt64Array(2);
  let largeWeights = 0n; // weights from 2^31 up
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i]!;
    if (w < 0n) throw new RangeError('allocation weights must not be negative');
    if (w < SMALL) acc[0] = BigInt.asIntN(64, acc[0]! + w);
    else largeWeights += w;
  }
  const weightSum = acc[0]! + largeWeights;
  if (weightSum === 0n || total === 0n) return weights.map(() => 0n);

  // Parts at their final length (no regrowth); remainders below 2^62 in a BigInt64Array,
  // which holds them without a heap BigInt each.
  const n = weights.length;
  const parts = new Array<bigint>(n);
  let given = 0n;
  let remainders: bigint[] | BigInt64Array;
  if (total < SMALL && weightSum < SMALL) {
    // Every product below 2^62: asIntN(64) is the identity and lets V8 use machine integers.
    const small = new BigInt64Array(n);
    for (let i = 0; i < n; i++) {
      const exact = BigInt.asIntN(64, total * weights[i]!);
      const part = BigInt.asIntN(64, exact / weightSum);
      parts[i] = part;
      small[i] = BigInt.asIntN(64, exact - BigInt.asIntN(64, part * weightSum));
      acc[1] = BigInt.asIntN(64, acc[1]! + part);
    }
    given = acc[1]!;
    remainders = small;
  } else {
    const large = new Array<bigint>(n);
    for (let i = 0; i < n; i++) {
      const exact = total * weights[i]!;
      const part = exact / weightSum;
      parts[i] = part;
      large[i] = exact - part * weightSum;
      given += part;
    }
    remainders = large;
  }
  const left = Number(total - given); // always < weights.length
  if (left === 0) return parts;
  // One more unit each to the `left` largest remainders, ties to the earlier index: find the
  // smallest remainder that still gets one (the left-th largest), then hand them out in index
  // order (the same as sorting by remainder, descending, stably, and taking the first `left`).
  const cut = kthLargest(remainders.slice(), left);
  let above = 0;
  for (let i = 0; i < remainders.length; i++) if (remainders[i]! > cut) above += 1;
  let ties = left - above; // remainders equal to `cut` that get one, earliest first
  for (let i = 0; i < remainders.length; i++) {
    const r = remainders[i]!;
    if (r > cut || (r === cut && ties > 0)) {
      parts[i] = parts[i]! + 1n;
      if (r === cut) ties -= 1;
    }
  }
  return parts;
}

/**
 * allocate(total, the first n weights) on machine integers, for callers that keep amounts in
 * BigInt64Arrays: the parts go to work[0 .. n), and work needs 3n + 2 slots (the rest is
 * scratch). Only the ground where every product stays within 64 bits: a total and a sum of
 * weights below 2^31, no negative weight. Outside it no part is written and the answer is
 * false: allocate() then.
 */
export function allocateSmall(
  total: bigint,
  weights: BigInt64Array,
  n: number,
  work: BigInt64Array,
): boolean {
  if (total < 0n || total >= SMALL) return false;
  const sum = n; // work[n]: the sum of the weights, work[n + 1]: the parts given
  const given = n + 1;
  work[sum] = 0n;
  for (let i = 0; i < n; i++) {
    const w = weights[i]!;
    if (w < 0n || w >= SMALL) return false;
    work[sum] = BigInt.asIntN(64, work[sum]! + w);
  }
  if (work[sum]! >= SMALL) return false;
  if (work[sum] === 0n || total === 0n) {
    work.fill(0n, 0, n);
    return true;
  }
  // Remainders at work[n + 2 ..], their copy for the selection after them.
  const rem = n + 2;
  work[given] = 0n;
  for (let i = 0; i < n; i++) {
    const exact = BigInt.asIntN(64, total * weights[i]!);
    const part = BigInt.asIntN(64, exact / work[sum]!);
    work[i] = part;
    work[rem + i] = BigInt.asIntN(64, exact - BigInt.asIntN(64, part * work[sum]!));
    work[given] = BigInt.asIntN(64, work[given]! + part);
  }
  const left = Number(BigInt.asIntN(64, total - work[given]!)); // always < n
  if (left === 0) return true;
  work.copyWithin(rem + n, rem, rem + n);
  const cut = kthLargest(work, left, rem + n, rem + 2 * n - 1);
  let above = 0;
  for (let i = 0; i < n; i++) if (work[rem + i]! > cut) above += 1;
  let ties = left - above; // remainders equal to `cut` that get one, earliest first
  for (let i = 0; i < n; i++) {
    const r = work[rem + i]!;
    if (r > cut || (r === cut && ties > 0)) {
      work[i] = BigInt.asIntN(64, work[i]! + 1n);
      if (r === cut) ties -= 1;
    }
  }
  return true;
}

/**
 * The k-th largest (1-based) of values[lo .. hi] (all of them by default), which it
 * reorders (quickselect, Hoare partition).
 */
function kthLargest(
  values: bigint[] | BigInt64Array,
  k: number,
  from = 0,
  to = values.length - 1,
): bigint {
  const target = from + k - 1; // its index once sorted in descending order
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! > pivot) i++;
      while (values[j]! < pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    // Now values[lo..j] >= pivot, values[i..hi] <= pivot, and anything between equals it.
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return pivot;
  }
  return values[lo]!;
}
