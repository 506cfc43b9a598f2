/** A document loader refusal: the URL is no bundled or configured context, and is never fetched. */
export class ContextRefused extends Error {
  override readonly name = 'ContextRefused';
  constructor(readonly url: string) {
    super('The JSON-LD context is neither bundled nor configured; contexts are never fetched');
  }
}
