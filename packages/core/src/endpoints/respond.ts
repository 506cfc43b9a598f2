import { Refusal } from '../errors/refusal.js';
import type { CoreResponse } from '../wire/core-request.js';
import { jsonResponse } from '../wire/responses.js';

/**
 * A JSON answer once the operation's promise settles. A `then` on it, not an async frame around
 * it: every JSON route runs through here.
 */
export const json = (status: number, value: Promise<unknown> | unknown): Promise<CoreResponse> => Promise.resolve(value).then((settled) => jsonResponse(status, settled));
/** As `json`, passing an operation's returned refusal on as it is (for `runOrRefuse`). */
export const jsonOrRefusal = (status: number, value: Promise<unknown>): Promise<CoreResponse | Refusal> =>
  value.then((settled) => (settled instanceof Refusal ? settled : jsonResponse(status, settled)));
