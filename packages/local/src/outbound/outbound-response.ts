/** What an outbound GET gives back: the bounded body and its declared media type. */
export interface OutboundResponse {
  body: Uint8Array;
  contentType: string | null;
}
