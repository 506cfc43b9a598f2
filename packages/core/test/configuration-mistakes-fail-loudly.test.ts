import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, createAuthorizer, passThroughValidator, passThroughVerifier, type AuthorizerOptions } from '@vp-authorizer/core';
import { API_KEY, DCQL_SD_JWT, devSigning, startAuthorizer } from './__fixtures__/test-authorizer.js';

async function options(change: (o: Record<string, any>) => void = () => {}): Promise<AuthorizerOptions> {
  const { signing } = await devSigning();
  const o: Record<string, any> = {
    publicBaseUrl: 'https://rp.example/authz',
    sweepIntervalMs: 0,
    instances: [{ id: 'main', apiKeys: [API_KEY], signing, validator: passThroughValidator(), verifier: passThroughVerifier(), config: {} }],
  };
  change(o);
  return o as AuthorizerOptions;
}

function configError(o: AuthorizerOptions): ConfigError {
  try {
    createAuthorizer(o).close();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('createAuthorizer accepted the options');
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('unknown configuration keys are refused with the closest known name', () => {
  it('names openId4vp for openid4vp inside an instance configuration', async () => {
    const error = configError(await options((o) => (o.instances[0].config = { openid4vp: { redirectUri: 'https://rp.example/done' } })));
    expect(error.issues).toEqual([{ path: 'instances.0.config.openid4vp', message: 'unknown option "openid4vp": did you mean "openId4vp"?' }]);
  });

  it('names publicBaseUrl for publicBaseURL at the root', async () => {
    const error = configError(await options((o) => (o.publicBaseURL = 'https://rp.example/authz')));
    expect(error.message).toContain('publicBaseURL: unknown option "publicBaseURL": did you mean "publicBaseUrl"?');
  });

  it('names a misspelt member deep inside openId4vp and lists the known ones when nothing is close', async () => {
    const error = configError(
      await options((o) => {
        o.instances[0].config = { openId4vp: { redirectUrl: 'https://rp.example/done' } };
        o.instances[0].colour = 'blue';
      }),
    );
    expect(error.issues.map((i) => i.message)).toEqual(['unknown option "redirectUrl": did you mean "redirectUri"?', 'unknown option "colour"; known options here: id, apiKeys, config, signing, registrationCertificates, readerAuth, webhooks, validator, verifier']);
  });

  it('says "did you mean" for a strict object (cors) instead of the schema\'s bare "Invalid key"', async () => {
    const error = configError(await options((o) => (o.instances[0].config = { cors: { enabled: true, allowHeader: ['Authorization'] } })));
    expect(error.issues).toEqual([{ path: 'instances.0.config.cors.allowHeader', message: 'unknown option "allowHeader": did you mean "allowHeaders"?' }]);
  });

  it('still accepts the hosted-API members documented as ignored (trustAnchor.type, serviceRole)', async () => {
    const o = await options((o) => {
      o.instances[0].config = { openId4vp: { trustAnchor: { type: 'x509', anchor: 'root' } }, policies: { validate: { validator: { type: 'managed', serviceRole: 'x' } } } };
    });
    await expect(createAuthorizer(o).close()).resolves.toBeUndefined();
  });
});

describe('a missing validator or verifier names the package that provides one', () => {
  it('says to pass localValidator() from @vp-authorizer/local', async () => {
    const error = configError(await options((o) => delete o.instances[0].validator));
    expect(error.message).toContain('instances[0] (main) has no validator: pass `validator: localValidator()` from @vp-authorizer/local or a client of your own');
  });

  it('says to pass localVerifier() from @vp-authorizer/local', async () => {
    const error = configError(await options((o) => delete o.instances[0].verifier));
    expect(error.message).toContain('instances[0] (main) has no verifier: pass `verifier: localVerifier()` from @vp-authorizer/local or a client of your own');
  });
});

describe('publicBaseUrl under NODE_ENV=production', () => {
  it('refuses http: and names the fix', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const error = configError(await options((o) => (o.publicBaseUrl = 'http://rp.example/authz')));
    expect(error.issues).toEqual([{ path: 'publicBaseUrl', message: expect.stringContaining('publicBaseUrl must be an https URL when NODE_ENV=production') }]);
  });

  it('accepts http: outside production', async () => {
    vi.stubEnv('NODE_ENV', 'development');
    await expect(createAuthorizer(await options((o) => (o.publicBaseUrl = 'http://127.0.0.1:3000/authz'))).close()).resolves.toBeUndefined();
  });
});

describe('logger: "console"', () => {
  it('writes the warning lines to the console', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const authz = await startAuthorizer({ basePath: '', logger: 'console' });
    try {
      // Served at the root while publicBaseUrl's path is /authz.
      await fetch(authz.base.replace(/\/authz$/, '/openid4/vp/v1_0/authorizations'), { method: 'POST' });
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^\[vp-authorizer\] warn config\.mount_path_mismatch .*"mountPath":"\/","publicBasePath":"\/authz"/));
    } finally {
      await authz.close();
    }
  });

  it('refuses another string with the accepted values', async () => {
    const error = configError(await options((o) => (o.logger = 'stdout')));
    expect(error.message).toContain("logger must be a pino-compatible logger object, 'console' or 'console:debug'");
  });
});

describe('a handler mounted away from publicBaseUrl\'s path', () => {
  it('warns once, at the first request whose mount point differs, naming both paths', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const authz = await startAuthorizer({ basePath: '' });
    try {
      const root = authz.base.replace(/\/authz$/, '');
      await fetch(`${root}/openid4/vp/v1_0/authorizations`, { method: 'POST' });
      await fetch(`${root}/openid4/vp/v1_0/authorizations`, { method: 'POST' });
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.includes('mounted at'))).toEqual([expect.stringContaining('the authorizer is mounted at "/" but publicBaseUrl\'s path is "/authz"')]);
    } finally {
      process.off('warning', onWarning);
      await authz.close();
    }
  });

  it('says nothing when the mount point is publicBaseUrl\'s path', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const authz = await startAuthorizer();
    try {
      await authz.api('/openid4/vp/v1_0/authorizations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: DCQL_SD_JWT } }) });
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.includes('mounted at'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await authz.close();
    }
  });
});

describe('requests a mistake would otherwise leave unanswerable', () => {
  it('answers a preflight that reached the authorizer (no cors middleware) with a hint', async () => {
    const authz = await startAuthorizer();
    try {
      const res = await fetch(`${authz.base}/openid4/vp/v1_0/authorizations`, { method: 'OPTIONS', headers: { origin: 'https://rp.example', 'access-control-request-method': 'POST' } });
      expect(res.status).toBe(405);
      expect(JSON.stringify(await res.json())).toContain('CORS preflights are answered by the cors() middleware of your adapter');
    } finally {
      await authz.close();
    }
  });

  it('refuses a DCQL format it does not know, listing the supported ones', async () => {
    const authz = await startAuthorizer();
    try {
      const dcql = { credentials: [{ id: 'pid', format: 'sd-jwt', claims: [{ path: ['given_name'] }] }] };
      const res = await authz.api('/openid4/vp/v1_0/authorizations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ responseMode: 'direct_post', query: { type: 'DCQL', dcql } }) });
      expect(res.status).toBe(400);
      const text = JSON.stringify(await res.json());
      expect(text).toContain('unsupported credential format \\"sd-jwt\\"; supported formats: dc+sd-jwt');
      expect(text).toContain('mso_mdoc');
    } finally {
      await authz.close();
    }
  });
});
