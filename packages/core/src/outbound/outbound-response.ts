/** What an outbound request gives back: the 2xx status, the bounded body and its declared media type. */
export interface OutboundResponse {
  status: number;
  body: Uint8Array;
  contentType: string | null;
}
