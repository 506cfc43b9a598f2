/**
 * What the JSON Schema patterns of one Presentation Exchange definition may cost. Creation refuses
 * a definition past them; a validator holds a stored definition to them again. Compiling a
 * pattern costs time in proportion to its RE2 program (about 5–40 µs per instruction here), and
 * every test of a wallet's value costs the value's length times that program's size: so the
 * program of all the patterns together is what is bounded.
 */

/** `pattern` keywords (and `patternProperties` names) in one definition. */
export const MAX_DEFINITION_PATTERNS = 64;
/** Characters of all the patterns of one definition together. */
export const MAX_DEFINITION_PATTERN_LENGTH = 1_024;
/** RE2 program instructions of all the (distinct) patterns of one definition together. */
export const MAX_DEFINITION_PATTERN_PROGRAM = 1_000;
/** Longest string a pattern is tested against; a longer value does not match. */
export const MAX_PATTERN_INPUT = 4_096;
