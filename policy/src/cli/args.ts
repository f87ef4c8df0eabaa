import { parseArgs } from 'node:util';

/** A usage mistake: printed with the command's usage line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type Flags = Record<string, string | boolean | undefined>;

export interface ParsedCommand {
  positionals: string[];
  flags: Flags;
  json: boolean;
}

/** Parses `--name value` flags (strings), switches (booleans) and `--json`; unknown flags are a usage error. */
export function parseCommand(argv: string[], flagNames: readonly string[], switches: readonly string[] = []): ParsedCommand {
  const options: Record<string, { type: 'string' | 'boolean' }> = { json: { type: 'boolean' } };
  for (const f of flagNames) options[f] = { type: 'string' };
  for (const f of switches) options[f] = { type: 'boolean' };
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { positionals, flags: values as Flags, json: values['json'] === true };
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

export function required(flags: Flags, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

export function optionalString(flags: Flags, name: string): string | undefined {
  const v = flags[name];
  return typeof v === 'string' ? v : undefined;
}

export function optionalInt(flags: Flags, name: string, min = 0): number | undefined {
  const v = optionalString(flags, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min} (got "${v}")`);
  return n;
}

export function requiredInt(flags: Flags, name: string, min = 0): number {
  const n = optionalInt(flags, name, min);
  if (n === undefined) throw new UsageError(`--${name} is required`);
  return n;
}

export function optionalBool(flags: Flags, name: string): boolean | undefined {
  const v = optionalString(flags, name);
  if (v === undefined) return undefined;
  if (v !== 'true' && v !== 'false') throw new UsageError(`--${name} must be true or false (got "${v}")`);
  return v === 'true';
}

export function optionalList(flags: Flags, name: string): string[] | undefined {
  const v = optionalString(flags, name);
  if (v === undefined) return undefined;
  return v.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

export function oneOf<T extends string>(flags: Flags, name: string, allowed: readonly T[]): T {
  const v = required(flags, name);
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got "${v}")`);
  return v as T;
}
