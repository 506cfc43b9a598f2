// Types of postgres-cluster.mjs, for the TypeScript tests that start their own cluster.
export interface PostgresCluster {
  readonly url: string;
  readonly port: number;
  readonly socketDir: string;
  readonly running: boolean;
  output(): string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** SIGKILL to the server and every process it started. */
  kill(): Promise<void>;
  dispose(): Promise<void>;
}
export function postgresBinDir(): string | undefined;
export const POSTGRES_SKIP_REASON: string;
export function startPostgresCluster(options?: { binDir?: string; log?: (line: string) => void }): Promise<PostgresCluster>;
