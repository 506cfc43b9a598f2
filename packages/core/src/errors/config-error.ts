import type { Code } from './error-codes.js';

/** Thrown at construction when options or an instance configuration fail validation. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = 'config.invalid' satisfies Code;
  readonly issues: { path: string; message: string }[];

  constructor(message: string, issues: { path: string; message: string }[] = []) {
    super(issues.length === 0 ? message : `${message}\n${issues.map((i) => `  - ${i.path || '(root)'}: ${i.message}`).join('\n')}`);
    this.issues = issues;
  }
}
