export function startExample(options?: { port?: number; host?: string; env?: Record<string, string | undefined> }): Promise<{ origin: string; apiKey: string; close(): Promise<void> }>;
