import type { CoreResponse } from '../wire/core-request.js';
import { jsonResponse } from '../wire/responses.js';

/**
 * A JSON answer once the operation's promise settles. A `then` on it, not an async frame around
 * it: every JSON route runs through here.
 */
export const json = (status: number, value: Promise<unknown> | unknown): Promise<CoreResponse> => Promise.resolve(value).then((settled) => jsonResponse(status, settled));
