import { InvalidArgumentError } from "commander";
import { readIsoDuration, UuidSchema } from "../sdk/nodejs/contract/index.ts";

/**
 * Parsers of flag values: each rejects a bad value with a message that says what is expected;
 * commander prints it with the flag's name and exits with the usage code.
 */

export function wholeNumber(value: string): number {
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isInteger(parsed) || parsed < 0) {
    throw new InvalidArgumentError("must be a whole number >= 0.");
  }
  return parsed;
}

export function basisPoints(value: string): number {
  const parsed = wholeNumber(value);
  if (parsed > 10_000) throw new InvalidArgumentError("must be basis points from 0 to 10000.");
  return parsed;
}

export function positiveAmount(value: string): number {
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed) || parsed <= 0) {
    throw new InvalidArgumentError("must be a USD amount greater than 0, such as 250 or 1250.50.");
  }
  return parsed;
}

export function uuid(value: string): string {
  if (!UuidSchema.safeParse(value).success) {
    throw new InvalidArgumentError("must be a UUID such as 3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70.");
  }
  return value;
}

export function isoDateTime(value: string): string {
  if (Number.isNaN(Date.parse(value)) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw new InvalidArgumentError("must be an ISO 8601 date-time such as 2026-11-01T00:00:00Z.");
  }
  return new Date(value).toISOString();
}

/** `PT24H=5000`: at least 5000 bps withdrawable within 24 hours. Repeatable. */
export function liquidityConstraint(
  value: string,
  previous: { maxProcessingTime: string; minWeightBps: number }[] = [],
): { maxProcessingTime: string; minWeightBps: number }[] {
  const [duration, weight] = value.split("=");
  if (duration === undefined || weight === undefined) {
    throw new InvalidArgumentError("must be <ISO 8601 duration>=<bps>, such as PT24H=5000.");
  }
  const { problem } = readIsoDuration(duration);
  if (problem !== undefined) {
    throw new InvalidArgumentError(
      `must be <ISO 8601 duration>=<bps>, such as PT24H=5000; its duration "${duration}" ${problem}.`,
    );
  }
  return [...previous, { maxProcessingTime: duration, minWeightBps: basisPoints(weight) }];
}

/** Collects a repeatable flag's values. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
