// ISO 4217 numeric codes: ZVT and Concert carry the number, our records the letters.
const CODES: Record<string, number> = {
  EUR: 978,
  USD: 840,
  GBP: 826,
  CHF: 756,
  PLN: 985,
  CZK: 203,
  SEK: 752,
  DKK: 208,
  NOK: 578,
  HUF: 348,
  RON: 946,
  BGN: 975,
  TRY: 949,
  UAH: 980,
  KZT: 398,
  RUB: 643,
  GEL: 981,
  AMD: 51,
  AZN: 944,
  BYN: 933,
  UZS: 860,
};

export function currencyNumber(alpha: string): number | null {
  return CODES[alpha.toUpperCase()] ?? null;
}
