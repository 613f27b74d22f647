// The data contract, built twice (docs/contract.md): `strict` for what our UI, API and CLI
// accept (unknown fields refused), `inbound` for what the central service sends (unknown
// fields kept). The registry names every resource for `contract validate`.
import type { z } from 'zod';
import { looseBusiness, strictBusiness } from './business.js';
import { looseCorporate, strictCorporate } from './corporate.js';
import { looseCustomer, strictCustomer } from './customer.js';
import { looseShared, strictShared } from './shared.js';

export * from './enums.js';
export type * from './shared.js';
export type * from './business.js';
// The corporate surface's Business clashes with the business surface's: a namespace keeps both.
export type * as corporate from './corporate.js';
export type * from './customer.js';
export type { Config } from './config.js';
export type { Problem } from './problems.js';

const surfaces = {
  shared: { strict: strictShared, inbound: looseShared },
  corporate: { strict: strictCorporate, inbound: looseCorporate },
  business: { strict: strictBusiness, inbound: looseBusiness },
  customer: { strict: strictCustomer, inbound: looseCustomer },
} as const;

export type Surface = keyof typeof surfaces;

export interface ContractType {
  name: string;
  surface: Surface;
  strict: z.ZodType;
  inbound: z.ZodType;
}

function buildRegistry(): Map<string, ContractType> {
  const owners = new Map<string, Surface[]>();
  for (const [surface, built] of Object.entries(surfaces) as [
    Surface,
    (typeof surfaces)[Surface],
  ][]) {
    for (const name of Object.keys(built.strict).filter((n) => /^[A-Z]/.test(n))) {
      owners.set(name, [...(owners.get(name) ?? []), surface]);
    }
  }
  const registry = new Map<string, ContractType>();
  for (const [name, where] of owners) {
    for (const surface of where) {
      const built = surfaces[surface] as unknown as Record<
        'strict' | 'inbound',
        Record<string, z.ZodType>
      >;
      const strict = built.strict[name];
      const inbound = built.inbound[name];
      if (!strict || !inbound) continue;
      // Where two surfaces share a name, the surface prefixes it (corporate.Business).
      const key = where.length > 1 ? `${surface}.${name}` : name;
      registry.set(key, { name: key, surface, strict, inbound });
    }
  }
  return registry;
}

const registry = buildRegistry();

/** Every type name `contract validate` knows, sorted. */
export function contractTypes(): string[] {
  return [...registry.keys()].sort((a, b) => a.localeCompare(b));
}

export function findContractType(name: string): ContractType | undefined {
  return registry.get(name);
}

export const contract = {
  strict: { ...strictShared, ...strictCorporate, ...strictBusiness, ...strictCustomer },
  inbound: { ...looseShared, ...looseCorporate, ...looseBusiness, ...looseCustomer },
  corporate: surfaces.corporate,
  business: surfaces.business,
} as const;
