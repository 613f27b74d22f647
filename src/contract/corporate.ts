// The corporate client surface (`{base_url}/v1/corporate_client`) of data-contract.md:
// businesses a corporate user may reach, the user's profile, account dashboards and their
// turnover and refuel reports. Built by one function from an object factory (wire.ts), so
// a strict and a loose variant share one static type.
//
// Required vs optional, as in shared.ts: a field is required only where the contract says so;
// the rest are optional. Nullable only where the contract says null is a value. Defaults the
// contract states are noted, not filled in (the service applies them).
import { z } from 'zod';
import { CorporateAccessScope, SpecialAccountCreditType, SpecialAccountType } from './enums.js';
import { looseShared, strictShared, type IdSchema, type Shared } from './shared.js';
import {
  currency,
  dateTime,
  decimalDigits,
  flag,
  looseObject,
  num,
  strictObject,
  uuid,
  type ObjectFactory,
} from './wire.js';

// long: the contract's schemas of one section, one after another as data-contract.md lists
// them; built once per object factory (strict and loose), so they cannot be split apart.
export function defineCorporate(o: ObjectFactory, shared: Shared, id: IdSchema = uuid) {
  const text = z.string().optional();

  // minimal shape: RelativeLoyalty is not shown by the contract (a loyalty of the business).
  const RelativeLoyalty = o({
    id: id.optional(),
    title: text,
    public_title: text,
    public_description: text,
  });

  /** Corporate client access per business. */
  const AccessObject = o({
    granted: z.boolean().optional(),
    scopes: z.array(CorporateAccessScope).optional(),
  });

  /** A business as the corporate surface shows it (the registry's `corporate.Business`). */
  const Business = o({
    id: id.optional(),
    title: text,
    code: text,
    country: text, // ISO country code
    active: flag.optional(),
    access: AccessObject.optional(),
    loyalties: z.array(RelativeLoyalty).optional(),
  });

  const BusinessesList = z.array(Business);

  /** Request body: refill of a corporate special account. */
  const CorporateSpecialAccountRefillObject = o({
    amount: num, // required by the contract
    amount_decimal_digits: decimalDigits.optional(),
    bonuses_decimal_digits: decimalDigits.optional(),
    special_accounts_decimal_digits: decimalDigits.optional(),
    check_services: z.array(shared.CheckService).optional(),
    comment: text,
  });

  const CorporateUserContact = o({
    address: text,
    comment: text,
    contact_person: text,
    email: text,
    mobile: text,
    phones: shared.PhoneNumbersList.optional(),
  });

  const CorporateUserProfile = o({
    // address
    address: text,
    city: text,
    company_name: text,
    country: text, // ISO country code
    post_code: text,
    region: text,
    // identity and preferences
    id: id.optional(),
    name: text,
    email: text, // used for account access
    language: text, // ISO language code
    password: z.boolean().optional(), // a static password exists
    qr_secret_key: text, // secret for QR generation: never log it
    contacts: z.array(CorporateUserContact).optional(),
    notification_settings: o({
      transaction_notification: flag.optional(),
      transaction_notification_emails: z.array(z.string()).optional(),
    }).optional(),
  });

  // The identity fields every dashboard and turnover item carries.
  const accountIdentity = {
    id: id.optional(),
    business_id: id.optional(),
    business_title: text,
    title: text,
    type: SpecialAccountType.optional(),
    currency: currency.optional(), // if the type is money
  };

  const DashboardAccountState = o({
    ...accountIdentity,
    active: flag.optional(), // default 1
    balance: num.optional(), // readonly
    available_amount: num.nullable().optional(), // readonly
    credit_limit: num.optional(), // credit accounts only
    credit_type: SpecialAccountCreditType.optional(),
    day_limit: num.min(0).optional(), // default 0; 0 = unlimited
    month_limit: num.min(0).optional(), // default 0; 0 = unlimited
    // readonly; an `_available` value is null when its limit is unlimited
    day_limit_used: num.optional(),
    day_limit_available: num.nullable().optional(),
    month_limit_used: num.optional(),
    month_limit_available: num.nullable().optional(),
    available_from: dateTime.nullable().optional(), // null = no time limit
    available_until: dateTime.nullable().optional(),
  });

  // Turnover items: the account identity plus `amount` (double).
  const turnoverItem = { ...accountIdentity, amount: num.optional() };

  const DashboardAccountTurnoverBaseItem = o(turnoverItem);

  const DashboardAccountTurnoverByCheckItemsItem = o({
    ...turnoverItem,
    item_category: text,
    item_code: text,
    item_title: text,
    item_unit: text,
  });

  const DashboardAccountTurnoverByCorporateVehiclesItem = o({
    ...turnoverItem,
    corporate_vehicle_id: id.optional(),
    corporate_vehicle_description: text,
    corporate_vehicle_qr_code: text,
  });

  const DashboardAccountTurnoverByStaffItem = o({
    ...turnoverItem,
    corporate_staff_id: id.optional(),
    corporate_staff_comment: text,
    corporate_staff_position_id: id.optional(),
    corporate_staff_position_title: text,
    user_email: text,
    user_external_id: text,
    user_name: text,
    user_phone: text,
  });

  // Opening and closing balances and the period's movements, instead of `amount`.
  const DashboardAccountTurnoverItem = o({
    ...accountIdentity,
    open_amount: num.optional(),
    close_amount: num.optional(),
    turnover_debit_amount: num.optional(),
    turnover_credit_amount: num.optional(),
  });

  // The contract's definition continues beyond these fields (not shown); the loose variant
  // keeps whatever else the service sends. Consumption values exist only after a previous
  // refuel.
  const DashboardRefuelItem = o({
    business_id: id.optional(),
    business_title: text,
    consumption_odometer: num.optional(),
    consumption_odometer_dpv: num.optional(),
    consumption_odometer_gpd: num.optional(),
    consumption_odometer_gph: num.optional(),
    consumption_odometer_l100k: num.optional(),
    consumption_odometer_lpd: num.optional(),
    consumption_odometer_lph: num.optional(),
    consumption_odometer_mpg: num.optional(),
    consumption_odometer_v100d: num.optional(),
    consumption_odometer_vpd: num.optional(),
  });

  return {
    RelativeLoyalty,
    AccessObject,
    Business,
    BusinessesList,
    CorporateSpecialAccountRefillObject,
    CorporateUserContact,
    CorporateUserProfile,
    DashboardAccountState,
    DashboardAccountTurnoverBaseItem,
    DashboardAccountTurnoverByCheckItemsItem,
    DashboardAccountTurnoverByCorporateVehiclesItem,
    DashboardAccountTurnoverByStaffItem,
    DashboardAccountTurnoverItem,
    DashboardRefuelItem,
  } as const;
}

export type Corporate = ReturnType<typeof defineCorporate>;

/** Our UI and API: unknown fields are refused, naming them. */
export const strictCorporate = defineCorporate(strictObject, strictShared);
/** What the central service sends: unknown fields are kept. */
export const looseCorporate = defineCorporate(looseObject, looseShared);

type Out<K extends keyof Corporate> = z.infer<Corporate[K]>;

export type RelativeLoyalty = Out<'RelativeLoyalty'>;
export type AccessObject = Out<'AccessObject'>;
export type Business = Out<'Business'>;
export type BusinessesList = Out<'BusinessesList'>;
export type CorporateSpecialAccountRefillObject = Out<'CorporateSpecialAccountRefillObject'>;
export type CorporateUserContact = Out<'CorporateUserContact'>;
export type CorporateUserProfile = Out<'CorporateUserProfile'>;
export type DashboardAccountState = Out<'DashboardAccountState'>;
export type DashboardAccountTurnoverBaseItem = Out<'DashboardAccountTurnoverBaseItem'>;
export type DashboardAccountTurnoverByCheckItemsItem =
  Out<'DashboardAccountTurnoverByCheckItemsItem'>;
export type DashboardAccountTurnoverByCorporateVehiclesItem =
  Out<'DashboardAccountTurnoverByCorporateVehiclesItem'>;
export type DashboardAccountTurnoverByStaffItem = Out<'DashboardAccountTurnoverByStaffItem'>;
export type DashboardAccountTurnoverItem = Out<'DashboardAccountTurnoverItem'>;
export type DashboardRefuelItem = Out<'DashboardRefuelItem'>;
