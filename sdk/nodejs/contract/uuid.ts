/**
 * The form of every id (spec conventions: "UUID strings"): any canonical 8-4-4-4-12 hex form, in
 * either case. Written here without zod so that the console's browser scripts check ids by the same
 * rule as UuidSchema (common.ts), which is built on it. The source text is the one zod's own `guid`
 * format uses, so the published documents' `pattern` reads as it always has.
 */
export const UUID_PATTERN = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
