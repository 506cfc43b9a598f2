import { ConfigError } from '@vp-authorizer/core';

/** The issues a construction refuses with, as `path: message` lines; [] when it succeeds. */
export const configIssuesOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  return [];
};
