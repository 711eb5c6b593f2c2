/**
 * The time claims of an `@auth` JWT (`exp`, `nbf`, `iat`: RFC 7519 NumericDates) as the GraphQL layer
 * accepts them: whole seconds since 1970, no later than 9999-12-31T23:59:59Z. jose takes any JSON number,
 * so a token signed with `exp: 1e308` never expired; a fraction, a negative value or a date past year 9999
 * is refused instead. No longest lifetime is imposed: that is the token issuer's choice.
 */
export const LATEST_NUMERIC_DATE = 253_402_300_799;

const TIME_CLAIMS = ["exp", "nbf", "iat"] as const;

/** The first time claim present that is not such a NumericDate, or undefined. */
export function invalidTimeClaim(payload: Record<string, unknown>): string | undefined {
  for (const claim of TIME_CLAIMS) {
    const value = payload[claim];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0 || value > LATEST_NUMERIC_DATE)
      return claim;
  }
  return undefined;
}
