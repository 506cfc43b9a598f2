import * as v from 'valibot';
import { isJsonObject } from '../shared/decode-jwt.js';
import { FormatFailure } from '../format-error.js';
import { parseJsonParameter } from '../shared/parse-json-parameter.js';
import { isSupportedFormat } from '../registry.js';
import { parsePresentation, type ParseOptions } from './parse-presentation.js';
import type { PresentationDefinition } from '../../model/authorization-query.js';
import type { ParsedPresentation } from '../../model/parsed-presentation.js';

interface NestedDescriptor {
  id?: string | undefined;
  format: string;
  path: string;
  path_nested?: NestedDescriptor | undefined;
}

const NestedDescriptorSchema: v.GenericSchema<NestedDescriptor> = v.looseObject({
  id: v.optional(v.string()),
  format: v.pipe(v.string(), v.nonEmpty()),
  path: v.pipe(v.string(), v.nonEmpty()),
  path_nested: v.optional(v.lazy(() => NestedDescriptorSchema)),
});

/** DIF Presentation Exchange v2 `presentation_submission`. */
export const PresentationSubmissionSchema = v.looseObject({
  id: v.pipe(v.string(), v.nonEmpty()),
  definition_id: v.string(),
  descriptor_map: v.pipe(
    v.array(
      v.looseObject({
        id: v.pipe(v.string(), v.nonEmpty()),
        format: v.pipe(v.string(), v.nonEmpty()),
        path: v.string(),
        path_nested: v.optional(NestedDescriptorSchema),
      }),
    ),
    v.minLength(1),
  ),
});
export type PresentationSubmission = v.InferOutput<typeof PresentationSubmissionSchema>;

const ROOT_PATH = /^\$(?:\[(0|[1-9]\d{0,5})\])?$/;

/** PE vp_token: one presentation, or an array of them; a JWT/SD-JWT string may arrive unquoted. */
function readPeVpToken(vpToken: unknown): unknown {
  if (typeof vpToken === 'string') {
    const trimmed = vpToken.trim();
    if (!/^[[{"]/.test(trimmed)) return vpToken;
    const parsed = parseJsonParameter(trimmed);
    if (!parsed.ok) throw new FormatFailure('format.vp_token_invalid', 'vp_token looks like JSON but does not parse', []);
    return parsed.value;
  }
  if (vpToken === undefined || vpToken === null) throw new FormatFailure('format.vp_token_invalid', 'vp_token is missing', []);
  return vpToken;
}

/**
 * Legacy Presentation Exchange (OpenID4VP draft ≤ 25 with PE v2): checks the submission against
 * the definition, resolves each descriptor's `$` / `$[n]` path in vp_token and decodes the
 * presentation by the descriptor's format. `path_nested` is checked for shape only; the
 * validator locates nested credentials. Path of each presentation = `[descriptorId, n]`
 * where n counts that descriptor's entries.
 *
 * Amplification limits: the descriptor_map may not have more entries than the definition has
 * input descriptors, a descriptor may not map to the same element twice, and each vp_token
 * element is decoded once per format however many entries point at it. Entries of different
 * descriptors that share an element (a VP carrying several credentials) get one presentation
 * each, sharing the decoded content, because the validator judges a presentation against its
 * own descriptor; that bounds verification to one per input descriptor the relying party asked for.
 */
export function parsePeVpToken(
  vpToken: unknown,
  submission: unknown,
  definition: PresentationDefinition,
  options: ParseOptions,
): { presentations: ParsedPresentation[]; failures: FormatFailure[] } {
  if (submission === undefined || submission === null) {
    throw new FormatFailure('format.submission_invalid', 'presentation_submission is required for Presentation Exchange', ['presentation_submission']);
  }
  const json = parseJsonParameter(submission);
  const result = json.ok ? v.safeParse(PresentationSubmissionSchema, json.value) : undefined;
  if (!result?.success) {
    throw new FormatFailure('format.submission_invalid', 'presentation_submission must be an object with id, definition_id and a non-empty descriptor_map of {id, format, path}', ['presentation_submission']);
  }
  const parsedSubmission = result.output;
  if (parsedSubmission.definition_id !== definition.id) {
    throw new FormatFailure('format.submission_invalid', 'presentation_submission.definition_id does not match the presentation definition id', ['presentation_submission']);
  }
  const inputDescriptors = Array.isArray(definition.input_descriptors) ? definition.input_descriptors : [];
  // Checked before vp_token is touched: each extra entry would otherwise cost a decode and a verification.
  if (parsedSubmission.descriptor_map.length > inputDescriptors.length) {
    throw new FormatFailure(
      'format.submission_invalid',
      `descriptor_map has ${parsedSubmission.descriptor_map.length} entries but the presentation definition has only ${inputDescriptors.length} input descriptors`,
      ['presentation_submission', 'descriptor_map'],
    );
  }
  const token = readPeVpToken(vpToken);
  const descriptors = new Map(inputDescriptors.map((d) => [d.id, d]));
  const presentations: ParsedPresentation[] = [];
  const failures: FormatFailure[] = [];
  const counters = new Map<string, number>();
  /** `${path} ${format}` → the element decoded once, or the failure it produced. */
  const decoded = new Map<string, ParsedPresentation | FormatFailure>();
  const mapped = new Set<string>();

  parsedSubmission.descriptor_map.forEach((entry, i) => {
    const at = ['presentation_submission', 'descriptor_map', i];
    const descriptor = descriptors.get(entry.id);
    if (!descriptor) {
      failures.push(new FormatFailure('format.submission_invalid', 'descriptor_map id is not an input descriptor id of the presentation definition', [...at, 'id']));
      return;
    }
    const allowedFormats = isJsonObject(descriptor.format) ? descriptor.format : isJsonObject(definition.format) ? definition.format : undefined;
    if (!isSupportedFormat(entry.format)) {
      failures.push(new FormatFailure('format.unsupported_format', 'descriptor_map format is not supported', [...at, 'format']));
      return;
    }
    if (allowedFormats && !Object.hasOwn(allowedFormats, entry.format)) {
      failures.push(new FormatFailure('format.submission_invalid', 'descriptor_map format is not one the input descriptor allows', [...at, 'format']));
      return;
    }
    const match = ROOT_PATH.exec(entry.path);
    if (!match) {
      failures.push(new FormatFailure('format.submission_invalid', 'descriptor_map path must be "$" or "$[n]"', [...at, 'path']));
      return;
    }
    let value: unknown;
    if (match[1] === undefined) {
      if (Array.isArray(token)) {
        failures.push(new FormatFailure('format.submission_invalid', 'descriptor_map path "$" points at an array vp_token', [...at, 'path']));
        return;
      }
      value = token;
    } else {
      const n = Number(match[1]);
      if (!Array.isArray(token) || n >= token.length) {
        failures.push(new FormatFailure('format.submission_invalid', 'descriptor_map path does not resolve in vp_token', [...at, 'path']));
        return;
      }
      value = token[n];
    }
    // `$` and `$[n]` are canonical (no leading zeros), so the string identifies the element.
    const elementKey = `${entry.path} ${entry.format}`;
    const mappingKey = `${entry.id} ${elementKey}`;
    if (mapped.has(mappingKey)) {
      failures.push(new FormatFailure('format.submission_invalid', 'descriptor_map maps the same input descriptor to the same presentation twice', at));
      return;
    }
    mapped.add(mappingKey);
    const index = counters.get(entry.id) ?? 0;
    counters.set(entry.id, index + 1);
    const location = { queryId: entry.id, index, format: entry.format };
    let parsed = decoded.get(elementKey);
    if (parsed === undefined) {
      try {
        parsed = parsePresentation(value, location, options);
      } catch (error) {
        if (!(error instanceof FormatFailure)) throw error;
        parsed = error;
      }
      decoded.set(elementKey, parsed);
      if (parsed instanceof FormatFailure) failures.push(parsed);
      else presentations.push(parsed);
      return;
    }
    // Already decoded for another descriptor: its failure is reported once; a success is shared
    // (same decoded content, this descriptor's id and path).
    if (!(parsed instanceof FormatFailure)) presentations.push({ ...parsed, ...location, path: [entry.id, index] });
  });
  // Unreferenced vp_token elements are not an error by themselves; the validator decides coverage.
  return { presentations, failures };
}
