// The demo business (`--seed demo`): a fuel station with three fuel grades (a per-litre
// discount for gold cards, prepay), shop goods and coffee; retail customers of two card
// categories with regular and promotional bonuses; a corporate fleet customer with vehicles,
// drivers and special accounts with day, month and PIN limits; coupons of each type; staff.
// Ids are fixed (`DEMO`), so tests and docs can name them. Dates are relative to `now`.
import { DEMO_API_KEY, DEMO_TERMINAL_ID } from '../contract/config.js';
import { localDate } from '../contract/local-time.js';
import { addDays } from '../engine/schedule.js';
import { hashSecret } from '../secret-hash/index.js';
import { hashApiKey } from './service.js';
import type { CentralStore } from './store/central-store.js';

/** A fixed UUIDv7-shaped id for demo record `n`. */
export function demoId(n: number): string {
  return `018f0000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
}

export const DEMO = {
  terminalId: DEMO_TERMINAL_ID, // demoId(1)
  apiKey: DEMO_API_KEY,
  businessId: demoId(2),
  loyaltyId: demoId(3),
  posId: demoId(4),
  timeZone: 'Europe/Berlin',
  currency: 'EUR',
  categories: { silver: demoId(10), gold: demoId(11), fleet: demoId(12) },
  customers: {
    anna: demoId(100), // gold card, regular + promotional bonuses, a money account
    ben: demoId(101), // silver card
    clara: demoId(102), // waiting for confirmation
    dan: demoId(103), // black-listed
    fleet: demoId(110), // the corporate fleet customer
    driver1: demoId(111), // a driver with a PIN
    driver2: demoId(112), // a driver without a PIN
  },
  cards: {
    anna: '7001000000001',
    ben: '7001000000002',
    clara: '7001000000003',
    dan: '7001000000004',
    driver1: '7009000000001',
    driver2: '7009000000002',
  },
  accounts: { annaWallet: demoId(200), fleet: demoId(210) },
  accesses: { driver1: demoId(220), driver2: demoId(221) },
  vehicles: { truck: demoId(230), van: demoId(231) },
  pins: { driver1: '1234' },
  staff: { cashier: demoId(300), senior: demoId(301), manager: demoId(302) },
  authCodes: { cashier: '1111', senior: '2222', manager: '3333' },
  coupons: {
    coffee: 'COFFEE-0001',
    gift: 'GIFT-0001',
    partner: 'PARTNER-0001',
    cross: 'CROSS-0001',
  },
} as const;

// Barcodes (ours, docs/devices.md "Goods barcodes"): EAN-13, EAN-8, UPC-A and a GTIN-14; the
// cheese by weight and the cake by price are sold by our in-store labels (2 1 00042 ..., 2 2
// 00043 ...), listed by their first seven digits.
const goods = [
  { code: 'FUEL-95', category: 'fuel', title: 'Super 95', unit: 'l', price: 1.789 },
  { code: 'FUEL-98', category: 'fuel', title: 'Super Plus 98', unit: 'l', price: 1.899 },
  { code: 'DIESEL', category: 'fuel', title: 'Diesel', unit: 'l', price: 1.659 },
  {
    code: 'COF-1',
    category: 'coffee',
    title: 'Coffee',
    unit: 'pc',
    price: 2.5,
    barcodes: ['4260000000028'],
  },
  {
    code: 'COF-2',
    category: 'coffee',
    title: 'Latte',
    unit: 'pc',
    price: 3.2,
    barcodes: ['4260000000035'],
  },
  {
    code: 'SNK-1',
    category: 'shop',
    title: 'Sandwich',
    unit: 'pc',
    price: 4.99,
    barcodes: ['96385074'],
  },
  {
    code: 'WTR-1',
    category: 'shop',
    title: 'Water 0.5 l',
    unit: 'pc',
    price: 1.49,
    barcodes: ['4260000000011'],
  },
  {
    code: 'OIL-1',
    category: 'shop',
    title: 'Motor oil 1 l',
    unit: 'pc',
    price: 12.9,
    barcodes: ['036000291452'],
  },
  {
    code: 'EGG-6',
    category: 'shop',
    title: 'Eggs, box of 6',
    unit: 'box',
    price: 2.79,
    whole_number: 1,
    barcodes: ['4260000000042'],
  },
  {
    code: 'CHS-1',
    category: 'shop',
    title: 'Bergkäse by weight',
    unit: 'kg',
    price: 24.9,
    barcodes: ['2100042'],
  },
  {
    code: 'CAKE-1',
    category: 'bakery',
    title: 'Cake of the day',
    unit: 'pc',
    barcodes: ['2200043'],
  },
  {
    code: 'WASH-5',
    category: 'shop',
    title: 'Screen wash 5 l',
    unit: 'pc',
    price: 7.5,
    barcodes: ['09501101530003'],
  },
];

const pct = (v: number) => ({ type: 'percentage', thresholds: [{ from: 0, value: v }] });

type Fields = Record<string, unknown>;
type Up = (entity: string, data: { id: string } & Fields) => void;

/** Writes the demo business into an empty sandbox; `now` anchors lot and coupon dates. */
export function seedDemo(store: CentralStore, nowMs: number): void {
  const today = localDate(nowMs, DEMO.timeZone);
  const up: Up = (entity, data) => store.upsert(entity, data.id, data);
  // One transaction, records written in this order (the change feed keeps it).
  store.tx(() => {
    seedTerminalOnly(store);
    seedBusiness(up);
    seedRules(up);
    seedRetailCustomers(up, today);
    seedFleet(up);
    seedVehicles(up);
    seedCards(up);
    seedCoupons(up, today);
    seedServices(up);
    seedStaff(up);
  });
}

function seedBusiness(up: Up): void {
  up('business_settings', {
    id: DEMO.businessId,
    business_id: DEMO.businessId,
    base_time_zone: DEMO.timeZone,
    currency: DEMO.currency,
    role_based_model: { active: true },
    public_title: { en: 'Demo Fuel GmbH' },
    // ours: the business's CheckCustomerFeedbackSettings, printed on receipts.
    customer_feedback_settings: {
      active: 1,
      feedback_source: {
        id: demoId(5),
        title: 'Demo Station Nord feedback',
        invitation_text: 'How was your visit?',
        urls: {
          base_url: 'https://feedback.example/demo-nord',
          short_url: 'https://fb.example/dn',
        },
      },
      print_feedback_on_check: 'all',
      print_feedback_on_check_message_text: 'Tell us how we did: scan the code',
    },
  });
  up('loyalty', {
    id: DEMO.loyaltyId,
    business_id: DEMO.businessId,
    title: 'Demo Fuel Rewards',
    currency: DEMO.currency,
    bonus_payment_max_percent: 50,
    bonus_rate: 1,
    count_bonuses_redeemed_amount: 1,
  });
  up('pos', {
    id: DEMO.posId,
    loyalty_id: DEMO.loyaltyId,
    title: 'Demo Station Nord',
    addresses: 'Nordring 1, 10115 Berlin',
    type: 'fuel-station',
    time_zone: DEMO.timeZone,
    active: 1,
    country: 'DE',
    catalog: goods, // ours: the goods the demo till offers
  });
}

/** The demo's rules by record number; seedRules adds what they share. */
const rules: [number, Fields][] = [
  [
    400,
    {
      title: 'Gold card: 5 cents off per litre',
      automatic: 1,
      action_type: 'discount',
      applicable_for_customer: 'identified',
      card_category_id: DEMO.categories.gold,
      included_item_categories: ['fuel'],
      value: { type: 'amount-per-unit', thresholds: [{ from: 0, value: 0.05 }] },
    },
  ],
  [
    401,
    {
      title: '10% off coffee',
      automatic: 1,
      priority: 1,
      action_type: 'discount',
      applicable_for_customer: 'all',
      included_item_categories: ['coffee'],
      value: pct(10),
    },
  ],
  [
    402,
    {
      title: '2% back in bonuses',
      automatic: 1,
      priority: 2,
      action_type: 'bonuses',
      charge_type: 'regular-bonuses',
      applicable_for_customer: 'identified',
      value: pct(2),
    },
  ],
  [
    403,
    {
      title: 'Shop promo: 5% promotional bonuses for 30 days',
      automatic: 1,
      priority: 3,
      action_type: 'bonuses',
      charge_type: 'promotional-bonuses',
      applicable_for_customer: 'identified',
      included_item_categories: ['shop'],
      promotional_bonuses_starting_type: 'immediately',
      promotional_bonuses_expire_type: 'days',
      promotional_bonuses_expire_value: 30,
      value: pct(5),
    },
  ],
  [
    404,
    {
      title: 'Free coffee coupon',
      automatic: 2,
      action_type: 'discount',
      coupon_batch_code: 'COFFEE-FREE',
      included_item_categories: ['coffee'],
      only_once_per_check: 1,
      value: pct(100),
    },
  ],
  [
    405,
    {
      title: 'Fill 40 EUR, get a free coffee coupon',
      automatic: 1,
      priority: 4,
      action_type: 'coupon',
      applicable_for_customer: 'identified',
      coupon_batch_code: 'COFFEE-FREE',
      included_item_categories: ['fuel'],
      depends_type: 'amount',
      value: { type: 'amount', thresholds: [{ from: 40, value: 1 }] },
    },
  ],
  [
    406,
    {
      title: 'Fleet: 3 cents off per litre',
      automatic: 5,
      scope: 'corporate',
      action_type: 'discount',
      included_item_categories: ['fuel'],
      value: { type: 'amount-per-unit', thresholds: [{ from: 0, value: 0.03 }] },
    },
  ],
  [
    407,
    {
      title: 'Buy 3 coffees, get 1 bonus each',
      automatic: 3,
      action_type: 'bonuses',
      charge_type: 'regular-bonuses',
      included_item_categories: ['coffee'],
      depends_type: 'quantity',
      value: { type: 'amount-per-unit', thresholds: [{ from: 3, value: 1 }] },
    },
  ],
];

function seedRules(up: Up): void {
  for (const [n, r] of rules) {
    up('rule', {
      id: demoId(n),
      loyalty_id: DEMO.loyaltyId,
      active: 1,
      scope: 'retail',
      combine: 1,
      priority: 0,
      ...r,
    });
  }
}

function customer(up: Up, id: string, r: Fields): void {
  up('customer', { id, type: 'customer', access_type: 'full-bonuses-access', ...r });
}

/** Retail customers of both card categories, with Anna's and Ben's lots and Anna's wallet. */
function seedRetailCustomers(up: Up, today: string): void {
  const C = DEMO.customers;
  customer(up, C.anna, {
    name: 'Anna Gold',
    phone: '+49 30 1000001',
    email: 'anna@example.test',
    card_category_id: DEMO.categories.gold,
    bonuses: { regular: 120.5 },
  });
  customer(up, C.ben, {
    name: 'Ben Silver',
    phone: '+49 30 1000002',
    email: 'ben@example.test',
    card_category_id: DEMO.categories.silver,
    bonuses: { regular: 40 },
  });
  customer(up, C.clara, {
    name: 'Clara New',
    phone: '+49 30 1000003',
    access_type: 'waiting-for-confirmation',
    card_category_id: DEMO.categories.silver,
    bonuses: { regular: 0 },
  });
  customer(up, C.dan, {
    name: 'Dan Blocked',
    phone: '+49 30 1000004',
    access_type: 'in-black-list',
    card_category_id: DEMO.categories.silver,
    bonuses: { regular: 15 },
  });
  up('bonus_lot', {
    id: demoId(150),
    customer_id: C.anna,
    amount: 15,
    starting: addDays(today, -10),
    expire: addDays(today, 20),
  });
  up('bonus_lot', {
    id: demoId(151),
    customer_id: C.ben,
    amount: 5,
    starting: addDays(today, -1),
    expire: addDays(today, 5),
  });
  up('special_account', {
    id: DEMO.accounts.annaWallet,
    customer_id: C.anna,
    title: 'Anna wallet',
    type: 'money',
    currency: DEMO.currency,
    balance: 50,
    credit_type: 'none',
    credit_limit: 0,
    active: 1,
    extended: 0,
    goods_items: [],
  });
}

const fleetAccount = {
  id: DEMO.accounts.fleet,
  customer_id: DEMO.customers.fleet,
  title: 'Fleet fuel account',
  type: 'money',
  currency: DEMO.currency,
  balance: 5000,
  credit_type: 'limited',
  credit_limit: 1000,
  active: 1,
  extended: 1,
  goods_items: ['FUEL-95', 'FUEL-98', 'DIESEL'],
};

/** The corporate fleet customer, its two drivers, its account and the drivers' accesses to it. */
function seedFleet(up: Up): void {
  const C = DEMO.customers;
  customer(up, C.fleet, {
    name: 'Fleet Logistics GmbH',
    type: 'corporate-customer',
    corporate_customer_category_id: DEMO.categories.fleet,
    external_id: 'FLEET-1',
    bonuses: { regular: 0 },
  });
  customer(up, C.driver1, {
    name: 'Driver One',
    phone: '+49 30 2000001',
    corporate_customer_id: C.fleet,
    corporate_customer_category_id: DEMO.categories.fleet,
    bonuses: { regular: 0 },
  });
  customer(up, C.driver2, {
    name: 'Driver Two',
    phone: '+49 30 2000002',
    corporate_customer_id: C.fleet,
    corporate_customer_category_id: DEMO.categories.fleet,
    bonuses: { regular: 0 },
  });
  up('special_account', fleetAccount);
  fleetAccess(up, DEMO.accesses.driver1, C.driver1, {
    limits: accessLimits(150, 1500),
    odometer: 'required',
    vehicle_id: 'optional',
    security_code: 1,
    pin_hash: hashSecret(DEMO.pins.driver1),
  });
  fleetAccess(up, DEMO.accesses.driver2, C.driver2, {
    limits: accessLimits(100, 1000),
    odometer: 'optional',
    vehicle_id: 'none',
    security_code: 0,
  });
}

/** A driver's access to the fleet account, which it embeds. */
function fleetAccess(up: Up, id: string, driver: string, o: Fields): void {
  up('corporate_access', {
    id,
    customer_id: driver,
    corporate_customer_special_account: {
      id: demoId(215),
      active: 1,
      corporate_customer: { id: DEMO.customers.fleet, suspended: 0 },
      // The embedded account is an AccountsRec: no owner field (that is ours, on the record).
      special_account: (({ customer_id: _owner, ...rest }) => rest)(fleetAccount),
    },
    goods_items: ['FUEL-95', 'FUEL-98', 'DIESEL'],
    ...o,
  });
}

/** The fleet account's own limits, and the driver's. */
function accessLimits(userDay: number, userMonth: number): Fields {
  return {
    account_day_limit: 500,
    account_day_limit_used: 0,
    account_day_limit_available: 500,
    account_month_limit: 5000,
    account_month_limit_used: 0,
    account_month_limit_available: 5000,
    account_available_from: null,
    account_available_until: null,
    user_day_limit: userDay,
    user_day_limit_used: 0,
    user_day_limit_available: userDay,
    user_month_limit: userMonth,
    user_month_limit_used: 0,
    user_month_limit_available: userMonth,
    user_overall_limit: 0,
    user_overall_limit_used: 0,
    user_overall_limit_available: null,
    user_available_from: null,
    user_available_until: null,
  };
}

function seedVehicles(up: Up): void {
  up('vehicle', {
    id: DEMO.vehicles.truck,
    customer_id: DEMO.customers.fleet,
    vehicle_id: 'TRUCK-1',
    qr_code: 'VQR-TRUCK-1',
    description: 'Truck B-FL 101',
    last_odometer: { value: 120500, unit: 'km' },
  });
  up('vehicle', {
    id: DEMO.vehicles.van,
    customer_id: DEMO.customers.fleet,
    vehicle_id: 'VAN-1',
    qr_code: 'VQR-VAN-1',
    description: 'Van B-FL 202',
    last_odometer: { value: 48210, unit: 'km' },
  });
}

function seedCards(up: Up): void {
  const C = DEMO.customers;
  const card = (n: number, code: string, customerId: string, category: string) =>
    up('card', {
      id: demoId(n),
      code,
      customer_id: customerId,
      card_category_id: category,
      title: 'Demo card',
      scope: 'business',
    });
  card(120, DEMO.cards.anna, C.anna, DEMO.categories.gold);
  card(121, DEMO.cards.ben, C.ben, DEMO.categories.silver);
  card(122, DEMO.cards.clara, C.clara, DEMO.categories.silver);
  card(123, DEMO.cards.dan, C.dan, DEMO.categories.silver);
  card(124, DEMO.cards.driver1, C.driver1, DEMO.categories.fleet);
  card(125, DEMO.cards.driver2, C.driver2, DEMO.categories.fleet);
}

/** Coupons, one of each type, each with its batch. */
function seedCoupons(up: Up, today: string): void {
  const C = DEMO.customers;
  const batch = (
    n: number,
    code: string,
    type: string,
    title: string,
    price: Record<string, unknown> = {},
  ) => {
    const b = {
      ...price,
      id: demoId(n),
      code,
      business_id: DEMO.businessId,
      loyalty_id: DEMO.loyaltyId,
      type,
      public_title: title,
      redeem_at_terminal: 1,
    };
    up('coupon_batch', b);
    return b;
  };
  const coffee = batch(500, 'COFFEE-FREE', 'check-modifier', 'A free coffee');
  // Sold at the till (coupon-sell): the gift certificate for bonuses, the car wash from the
  // customer's money account.
  const gift = batch(501, 'GIFT-10', 'certificate', '10 bonus gift certificate', {
    customers_price_type: 'bonuses',
    customers_price_amount: 25,
  });
  const partner = batch(502, 'PARTNER', 'external', 'Partner car wash', {
    customers_price_type: 'special-account',
    customers_price_amount: 8.5,
    customers_price_currency: DEMO.currency,
  });
  const cross = batch(503, 'CROSS', 'check-modifier', 'Cross-business coffee');
  const coupon = (n: number, code: string, b: Fields, customerId: string | null, extra: Fields) =>
    up('coupon', {
      id: demoId(n),
      code,
      batch_id: b.id,
      loyalty_id: DEMO.loyaltyId,
      business_code: 'DEMO',
      customer_id: customerId,
      status: 'open',
      redeem_at_terminal: 1,
      expire_date: addDays(today, 90),
      batch: b,
      ...extra,
    });
  coupon(510, DEMO.coupons.coffee, coffee, C.anna, {
    type: 'check-modifier',
    title: 'A free coffee',
  });
  coupon(511, DEMO.coupons.gift, gift, C.ben, {
    type: 'certificate',
    title: '10 bonus gift',
    charge_type: 'regular-bonuses',
    charge_amount: 10,
  });
  coupon(512, DEMO.coupons.partner, partner, C.anna, {
    type: 'external',
    title: 'Partner car wash',
    external_code: 'WASH-7731',
    external_code_visibility_type: 'on-redeem',
  });
  coupon(513, DEMO.coupons.cross, cross, null, {
    type: 'cross-business',
    title: 'Cross-business coffee',
    business_code: 'OTHER',
  });
}

/** A tip service and the fuel margin. */
function seedServices(up: Up): void {
  up('additional_service', {
    id: demoId(600),
    code: 'TIP',
    type: 'tip',
    public_title: 'Tip',
    default: 0,
    sort_order: 1,
    cost: [
      {
        currency: DEMO.currency,
        decimal_digits: 2,
        min_value: 0,
        values: [{ threshold: 0, type: 'amount', value: 1 }],
      },
    ],
  });
  up('additional_cost', {
    id: demoId(610),
    loyalty_id: DEMO.loyaltyId,
    code: 'FUEL-MARGIN',
    title: 'Fuel margin',
    type: 'amount',
    default_value: 0.02,
    decimal_digits: 2,
    include_in_receipt: 0,
  });
}

function seedStaff(up: Up): void {
  const staff = (id: string, name: string, role: string, code: string) =>
    up('staff', {
      id,
      name,
      suspended: 0,
      role_based_model_roles: [role],
      terminals: [{ id: DEMO.terminalId }],
      auth_code_hash: hashSecret(code),
    });
  staff(DEMO.staff.cashier, 'Carla Cashier', 'cashier', DEMO.authCodes.cashier);
  staff(DEMO.staff.senior, 'Sam Senior', 'senior-cashier', DEMO.authCodes.senior);
  staff(DEMO.staff.manager, 'Mia Manager', 'manager', DEMO.authCodes.manager);
}

/** Just the demo terminal (no business data): the demo starts with it, benchmarks load their own. */
export function seedTerminalOnly(store: CentralStore): void {
  store.putTerminal({
    id: DEMO.terminalId,
    api_key_hash: hashApiKey(DEMO.apiKey),
    business_id: DEMO.businessId,
    pos_id: DEMO.posId,
    loyalty_id: DEMO.loyaltyId,
  });
}
