import { Refusal } from '../errors/refusal.js';
import type { CoreRequest, CoreResponse } from '../wire/core-request.js';
import { expectObject, parseBody } from '../wire/parse-body.js';
import { jsonResponse } from '../wire/responses.js';

/**
 * A JSON answer once the operation's promise settles. A `then` on it, not an async frame around
 * it: every JSON route runs through here.
 */
export const json = (status: number, value: Promise<unknown> | unknown): Promise<CoreResponse> => Promise.resolve(value).then((settled) => jsonResponse(status, settled));
/** As `json`, passing an operation's returned refusal on as it is (for `runOrRefuse`). */
export const jsonOrRefusal = (status: number, value: Promise<unknown>): Promise<CoreResponse | Refusal> =>
  value.then((settled) => (settled instanceof Refusal ? settled : jsonResponse(status, settled)));
/** The request's JSON object body (415 for another content type, 400 for a non-object). */
export const jsonBody = (request: CoreRequest): Record<string, unknown> => expectObject(parseBody(request, ['json']).value);
/** The request's form fields, one string each (415 for another content type). */
export const formBody = (request: CoreRequest): Record<string, string> => parseBody(request, ['form']).value as Record<string, string>;
