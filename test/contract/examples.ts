// Valid example payloads for contract tests and CLI tests. Each builder returns a fresh
// object, so a test may mutate its copy. They are written by hand from data-contract.md and
// engine.md, not derived from the schemas.

/** A deterministic, valid UUID (version 4, RFC variant) numbered `n`. */
export function exampleUuid(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export function validBusinessStaff() {
  return {
    id: exampleUuid(1),
    name: 'Ana Cashier',
    comment: 'morning shift',
    email: 'ana@example.com',
    phone: '+15550100',
    suspended: 0,
    terminals: [{ id: exampleUuid(2), title: 'Till 1' }],
    role_based_model_roles: ['cashier'],
    auth_code: '4821',
  };
}

/** A redeemed check-modifier coupon, as a CheckCoupon with its batch. */
export function validCheckCoupon() {
  return {
    id: exampleUuid(10),
    batch_id: exampleUuid(11),
    loyalty_id: exampleUuid(12),
    code: 'COFFEE-0001',
    business_code: 'FUEL1',
    title: 'Free coffee',
    description: 'One coffee free with any fuel purchase',
    image: 'https://example.com/coupon.png',
    expire_date: '2026-12-31',
    type: 'check-modifier',
    status: 'open',
    external_code_visibility_type: 'always-open',
    redeem_at_terminal: 1,
    share_allowed: 0,
    valid: true,
    applicable: true,
    activity_id: exampleUuid(13),
    object_id: 'rule-coffee-0001',
    object_type: 'loyalty-rule',
    batch: {
      id: exampleUuid(11),
      business_id: exampleUuid(14),
      loyalty_id: exampleUuid(12),
      code: 'FREE-COFFEE',
      type: 'check-modifier',
      public_title: 'Free coffee',
      redeem_at_terminal: 1,
      share_allowed: 0,
      auto_redeem_on_add_to_wallet: 0,
      customers_price_type: 'bonuses',
      customers_price_amount: 50,
      customers_price_currency: 'EUR',
      links: [{ type: 'base', app_code: 'main', app_id: exampleUuid(15), coupon_path_qr: '/qr/1' }],
    },
  };
}

/** A fully applied discount rule as returned in `implemented_rules`. */
export function validImplementedRule() {
  return {
    id: exampleUuid(20),
    loyalty_id: exampleUuid(12),
    card_category_id: null,
    special_account_id: null,
    title: '10% off coffee',
    scope: 'retail',
    active: 1,
    automatic: 1,
    priority: 1,
    combine: 1,
    action_type: 'discount',
    applicable_for_customer: 'all',
    applicable_for_sale: 'all',
    depends_type: 'none',
    count_bonuses_redeemed_amount: null,
    scheduled: 1,
    included_items: [],
    included_item_categories: ['coffee'],
    items_limit_min: 0,
    items_limit_max: 0,
    valid_after: '2026-01-01',
    valid_before: null,
    time_from: '06:00',
    time_to: '22:30:00',
    week_days: [1, 2, 3, 4, 5],
    pos: [{ id: exampleUuid(30), title: 'Main street' }],
    value: {
      type: 'percentage',
      thresholds: [
        { from: 0, value: 10 },
        { from: 20, value: 15 },
      ],
    },
    implementation_data: { applied: true, reason: null, amount: 0.5, lines: [0], missing: null },
  };
}

/** A rich Check request: lines, services, coupons, rules, taxes, tanks, payments, charges. */
export function richCheck() {
  return {
    amount: 64.99,
    amount_to_pay: 61.49,
    discount_amount: 0.5,
    services_amount: 2,
    shipping_amount: 0,
    bonuses_added_amount: 0.48,
    bonuses_redeemed_amount: 3,
    amount_decimal_digits: 2,
    bonuses_decimal_digits: 2,
    special_accounts_decimal_digits: 2,
    id: '+15550123',
    id_type: 'phone',
    customer_id: exampleUuid(40),
    business: {
      id: exampleUuid(14),
      title: 'Fuel & Coffee',
      photos: [{ url: 'https://example.com/b.png' }],
    },
    business_staff: { id: exampleUuid(1), name: 'Ana Cashier' },
    pos: {
      id: exampleUuid(30),
      loyalty_id: exampleUuid(12),
      title: 'Main street',
      type: 'fuel-station',
      latitude: 52.52,
      longitude: 13.405,
      time_zone: 'Europe/Berlin',
      active: 1,
      check_item_enter_mode: 'without-limits',
      maximum_service_distance: 0,
      phones: ['+15550100'],
    },
    loyalty: { id: exampleUuid(12), active: 1, title: 'Drive & Save' },
    corporate_vehicle: {
      id: exampleUuid(50),
      vehicle_id: 'B-XY-123',
      position_id: exampleUuid(51),
      position: { id: exampleUuid(51), title: 'Driver' },
    },
    billing_info: { address: { city: 'Berlin', zip: '10115' }, email: 'c@example.com', name: 'C' },
    customer_feedback_settings: {
      active: 1,
      feedback_source: {
        id: exampleUuid(60),
        title: 'Survey',
        urls: { base_url: 'https://f.example', short_url: 'https://f.ex/1' },
      },
      print_feedback_on_check: 'qr-code',
    },
    vehicle_id: 'TAG-0042',
    odometer: 120345.67,
    odometer_unit: 'km',
    terminal_odometer_measurement_units: 'km',
    check_items: [
      {
        code: 'C1',
        category: 'coffee',
        title: 'Coffee',
        unit: 'pcs',
        quantity: 2,
        price: 2.5,
        amount: 5,
        discount_amount: 0.5,
        whole_number: 1,
        calculated_price: 2.25,
        calculated_unit_discount_amount: 0.25,
        calculated_bonuses_redeemed_amount: 1.42,
        calculated_unit_bonuses_redeemed_amount: 0.71,
        taxes: [{ code: 'VAT19', title: 'VAT 19%', type: 'vat', rate: 19, exempt: false }],
        margins: [{ code: 'M1', type: 'percentage', value: 3 }],
        calculated_taxes: {
          base: [
            { type: 'vat', value: 0.72, value_code: 'VAT19', decimal_digits: 2, exempt: false },
          ],
          sales: [],
        },
        passthru_data: { pump: 3, nozzle: 'A' },
      },
      {
        code: 'F95',
        category: 'fuel',
        title: 'Petrol 95',
        unit: 'l',
        quantity: 30.123,
        price: 1.99,
        amount: 59.99,
        weighing: 0,
        quantity_decimal_digits: 3,
        quantity_recalculate_type: 'recalculate-by-amount',
        calculated_price: null,
        additions: { job: { id: 'job-7', status: 'done' }, quantity_recalculate_skipped: true },
      },
    ],
    check_services: [
      {
        code: 'DLV',
        title: 'Delivery',
        type: 'delivery',
        value: 4,
        cost: 0.5,
        amount: 2,
        decimal_digits: 2,
      },
    ],
    implemented_rules: [validImplementedRule()],
    manual_rules: false,
    bonuses_added: [
      {
        amount: 0.48,
        activity_id: exampleUuid(70),
        starting: '2026-11-22',
        expire: '2027-11-22',
        object_id: 'r2',
        object_type: 'loyalty-rule',
      },
    ],
    emitted_coupons: [
      { code: 'T1-000001', processing_status: 'pending', do_not_add_to_wallet: false },
    ],
    redeemed_coupons: [validCheckCoupon()],
    special_accounts_charges: [
      {
        special_account_id: 'acc-1',
        amount: 10,
        currency: 'EUR',
        decimal_digits: 2,
        direction: 'debit',
      },
      {
        special_account_id: 'acc-1',
        amount: 0.3,
        currency: 'EUR',
        decimal_digits: 2,
        direction: 'credit',
      },
    ],
    payments: [
      { type: 'special-account', amount: 10, payment_id: 'acc-1', currency: 'EUR' },
      { type: 'cash', amount: 51.49, currency: 'EUR', decimal_digits: 2 },
    ],
    tanks: [
      {
        tank_id: exampleUuid(80),
        code: 'T1',
        goods_code: 'F95',
        volume: 20000,
        physical_dip_amount: 1234.5,
      },
    ],
    user_external_forms: { required: [], wanted: [{ code: 'survey', title: 'Tell us more' }] },
    transaction_receipt_actions: [{ type: 'print-text', text: 'Thank you!' }],
    calculated_taxes: {
      base: [
        {
          type: 'vat',
          value: 0.72,
          value_code: 'VAT19',
          value_title: 'VAT 19%',
          include_in_receipt: true,
        },
      ],
      sales: [],
    },
    calculated_margins: {
      terminal_additional_costs: [{ type: 'percentage', value: 0.14, value_code: 'M1' }],
    },
    payment_id: 'acc-1',
    payment_type: 'special-account',
    special_account: { id: 'acc-1', title: 'Fleet fuel', currency: 'EUR', type: 'money' },
    special_account_pin: '1234',
    special_account_required_values_verify: true,
    transaction_id: exampleUuid(90),
    transaction_type: 'sale',
    transaction_subtype: 'online',
    transaction_cancelled: 0,
    online_store_order_id: exampleUuid(91),
    external_check_id: 'POS-2026-0001',
    external_check_id_by_user: 0,
    external_check_id_scope: 'terminal',
    external_additional_info: { lane: 2, tags: ['a', 'b'] },
    comment: 'rich example',
    skip_message: false,
  };
}

/** The rich Check as a response: no PIN, plus the response-only fields. */
export function richCheckResponse() {
  const { special_account_pin: _pin, ...rest } = richCheck();
  return {
    ...rest,
    summary_amount: 66.99,
    special_account_pin_required: false,
    special_account_odometer_required: 'required',
    special_account_vehicle_id_required: 'optional',
  };
}
