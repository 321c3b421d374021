/**
 * The command-line tool's own number settings (the merge check's tolerances, the comment's
 * thresholds): a flag, else a stack config key the provider never reads (not in
 * sdk/nodejs/stackSettings.ts's SETTINGS, so not in the package schema), else a documented default.
 * Read with `pulumi config` like the CLI's other settings, after the flags. Pure.
 */

export interface NumberSetting {
  flag: string;
  configKey: string;
  default: number;
  /** What a good value is, for the error: `a USD amount of 0 or more, such as 100 or 2500.50`. */
  what: string;
  min: number;
  max: number;
  /** Only whole numbers (basis points). */
  whole?: boolean;
}

/**
 * Each setting's value from its flag, else the stack config, else its default. Every bad value is
 * named at once, with where it came from and what is expected.
 */
export function resolveNumberSettings<Name extends string>(
  settings: Readonly<Record<Name, NumberSetting>>,
  flags: Partial<Record<Name, string>>,
  stackConfig: (key: string) => string | undefined,
): Record<Name, number> {
  const problems: string[] = [];
  const values = {} as Record<Name, number>;
  for (const name of Object.keys(settings) as Name[]) {
    const setting = settings[name];
    const fromFlag = flags[name];
    const fromConfig = fromFlag === undefined ? stackConfig(setting.configKey) : undefined;
    const text = fromFlag ?? (fromConfig === "" ? undefined : fromConfig);
    values[name] = setting.default;
    if (text === undefined) continue;
    const value = Number(text);
    if (
      text.trim() === "" ||
      !Number.isFinite(value) ||
      value < setting.min ||
      value > setting.max ||
      (setting.whole === true && !Number.isInteger(value))
    ) {
      const where = fromFlag !== undefined ? setting.flag : `stack config ${setting.configKey}`;
      problems.push(`${where} is "${text}": it must be ${setting.what}`);
      continue;
    }
    values[name] = value;
  }
  if (problems.length > 0) throw new Error(`${problems.join("; ")}.`);
  return values;
}
