// The entities of the change feed (sync.md, "Entities in changes"), by name: the store keeps
// one table each, the feed's pages name them, the central API's schemas list them.
import { z } from 'zod';

export const ENTITIES = [
  'loyalty',
  'rule',
  'pos',
  'customer',
  'card',
  'bonus_lot',
  'special_account',
  'corporate_access',
  'vehicle',
  'coupon',
  'coupon_batch',
  'additional_service',
  'additional_cost',
  'staff',
  'business_settings',
  'customer_stats',
] as const;
export const Entity = z.enum(ENTITIES);
export type Entity = z.infer<typeof Entity>;
