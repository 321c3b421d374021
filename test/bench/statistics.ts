/** The median of some numbers (NaN for none). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The p-th percentile by the nearest rank (NaN for none). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A figure rounded to a tenth, as the benches print them. */
export const toTenth = (value: number): number => Math.round(value * 10) / 10;

/** Least-squares line through points (x, y): y = intercept + slope·x. */
export function fitLine(points: readonly (readonly [number, number])[]): {
  intercept: number;
  slope: number;
} {
  const n = points.length;
  if (n === 0) return { intercept: Number.NaN, slope: Number.NaN };
  if (n === 1) return { intercept: points[0]![1], slope: 0 };
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  const sxx = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  const sxy = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const slope = sxx === 0 ? 0 : sxy / sxx;
  return { intercept: meanY - slope * meanX, slope };
}
