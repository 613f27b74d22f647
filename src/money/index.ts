// The one module that owns exact money arithmetic and rounding. See README.md beside it.
export * from './decimal.js';
export { allocate, allocateSmall } from './allocate.js';
export { formatMoney, parseAmount } from './format.js';
