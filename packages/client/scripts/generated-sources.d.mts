export declare const OPENAPI_DOCUMENT: URL;
export declare function renderApiTypes(): Promise<string>;
export declare function renderErrorCodes(codes: Record<string, { kind: string; status?: number; message?: string }>): string;
