import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument, type OpenApiDocument } from '@vp-authorizer/core';

/** One answer as the suite received it; `path` is relative to the mount point, without query. */
export interface ReceivedAnswer {
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  body: string;
  /**
   * A host body parser answered before the authorizer ran (malformed JSON under express.json(),
   * for example): the status must still be declared, the body is the host's own.
   */
  answeredByHost?: boolean;
}

interface Operation {
  'x-audience'?: string;
  operationId: string;
  responses: Record<string, { content?: Record<string, unknown> }>;
}

/** ajv and ajv-formats are CommonJS: their default export arrives wrapped under some loaders. */
const unwrap = <T>(module: T | { default: T }): T => ((module as { default?: T }).default ?? module) as T;

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/**
 * Checks answers against an OpenAPI 3.1 document: the status must be one the operation declares,
 * and the body must match that status's schema (JSON Schema 2020-12). An unknown path must be a
 * 404 and a known path with another method a 405, both with the error body of the path's
 * audience. Returns the problems found (empty = valid).
 */
export function createResponseValidator(document: OpenApiDocument = openApiDocument()): (answer: ReceivedAnswer) => string[] {
  const Ajv = unwrap(Ajv2020);
  const ajv = new Ajv({ strict: false, allErrors: true });
  unwrap(addFormats)(ajv);
  // The whole document is one schema resource, so #/components/schemas/… references resolve.
  ajv.addSchema(document as object, 'openapi');
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.split(/\{[^}]+\}/).map(escapeRegExp).join('[^/]+')}$`),
  }));
  const validatorAt = (pointer: string) => {
    const validate = ajv.getSchema(`openapi#${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate;
  };
  const checkJson = (pointer: string, text: string, what: string): string[] => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return [`${what}: the body is not JSON: ${text.slice(0, 120)}`];
    }
    const validate = validatorAt(pointer);
    return validate(value) ? [] : [`${what}: the body does not match the document: ${ajv.errorsText(validate.errors)}; body: ${text.slice(0, 300)}`];
  };

  return (answer) => {
    const method = answer.method.toLowerCase() === 'head' ? 'get' : answer.method.toLowerCase();
    const what = `${answer.method} ${answer.path} → ${answer.status}`;
    const found = templates.find((t) => t.pattern.test(answer.path));
    const head = answer.method.toUpperCase() === 'HEAD';
    if (!found) {
      if (answer.status !== 404) return [`${what}: the path is not in the document, so only 404 may answer it`];
      return head ? [] : checkJson('/components/schemas/Error', answer.body, what);
    }
    const methods = document.paths[found.template] as unknown as Record<string, Operation>;
    const operation = methods[method];
    if (!operation) {
      if (answer.status !== 405) return [`${what}: ${answer.method} is not an operation of ${found.template}, so only 405 may answer it`];
      const wallet = Object.values(methods).some((op) => op['x-audience'] === 'wallet');
      return head ? [] : checkJson(`/components/schemas/${wallet ? 'WalletError' : 'Error'}`, answer.body, what);
    }
    const declared = operation.responses[String(answer.status)];
    if (!declared) return [`${what}: status ${answer.status} is not declared for ${operation.operationId} (declared: ${Object.keys(operation.responses).join(', ')})`];
    if (answer.answeredByHost) return [];
    if (!declared.content) return answer.body === '' ? [] : [`${what}: ${operation.operationId} declares no body for ${answer.status}`];
    if (head) return answer.body === '' ? [] : [`${what}: a HEAD answer must have no body`];
    const mediaType = (answer.contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
    if (!(mediaType in declared.content)) return [`${what}: content type ${answer.contentType} is not declared (${Object.keys(declared.content).join(', ')})`];
    const pointer = `/paths/${escapePointer(found.template)}/${method}/responses/${answer.status}/content/${escapePointer(mediaType)}/schema`;
    if (mediaType === 'application/json') return checkJson(pointer, answer.body, what);
    const validate = validatorAt(pointer);
    return validate(answer.body) ? [] : [`${what}: the body does not match the document: ${ajv.errorsText(validate.errors)}`];
  };
}
