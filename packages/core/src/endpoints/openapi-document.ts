import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type { AnySchema, Endpoint, ResponseSpec } from './endpoint.js';
import { responsesOf, rpErrorSchema, walletErrorSchema } from './error-bodies.js';
import { LINEAR_CHECK_JSON_SCHEMAS } from './linear-check.js';
import { extractedCredentialSchema, policyErrorSchema, policyResultSchema } from './shared-schemas.js';

/** Schemas named once under components.schemas and referenced everywhere else. */
const COMPONENTS: Record<string, AnySchema> = {
  Error: rpErrorSchema,
  WalletError: walletErrorSchema,
  PolicyError: policyErrorSchema,
  PolicyResult: policyResultSchema,
  Credential: extractedCredentialSchema,
};

const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  // Request bodies are documented as a caller writes them (defaults may be left out).
  typeMode: 'input',
  // Checks JSON Schema cannot express (custom predicates, cross-field rules) stay runtime-only.
  errorMode: 'ignore',
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  overrideSchema: ({ valibotSchema }) => LINEAR_CHECK_JSON_SCHEMAS.get(valibotSchema),
};

const API_KEY = 'apiKey';

function schemaOf(schema: AnySchema): JsonSchema {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, { ...CONVERSION, definitions: COMPONENTS }) as JsonSchema & { $schema?: string };
  // The definitions map is emitted as $defs of every schema: components already hold them.
  delete (rest as { $defs?: unknown }).$defs;
  return rest;
}

function responseObject(spec: ResponseSpec, status: number): Record<string, unknown> {
  return {
    description: spec.description,
    ...(status === 503 || status === 429 ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } } } : {}),
    ...(spec.contentType && spec.schema ? { content: { [spec.contentType]: { schema: schemaOf(spec.schema) } } } : {}),
  };
}

/** Parameters are described member by member: their object schema's properties. */
function propertiesOf(schema: AnySchema | undefined): { properties: Record<string, JsonSchema & { description?: string }>; required: string[] } {
  if (!schema) return { properties: {}, required: [] };
  const converted = schemaOf(schema) as { properties?: Record<string, JsonSchema & { description?: string }>; required?: string[] };
  return { properties: converted.properties ?? {}, required: converted.required ?? [] };
}

function parametersOf(endpoint: Endpoint): Record<string, unknown>[] {
  const parameters: Record<string, unknown>[] = [];
  const path = propertiesOf(endpoint.pathParams);
  for (const name of endpoint.path.match(/\{([^}]+)\}/g) ?? []) {
    const key = name.slice(1, -1);
    const { description, ...schema } = path.properties[key] ?? { type: 'string' };
    parameters.push({ name: key, in: 'path', required: true, ...(description ? { description } : {}), schema });
  }
  if (endpoint.query) {
    const query = propertiesOf(endpoint.query);
    for (const [name, { description, ...schema }] of Object.entries(query.properties)) {
      parameters.push({ name, in: 'query', required: query.required.includes(name), ...(description ? { description } : {}), schema });
    }
  }
  if (endpoint.headers) {
    const headers = propertiesOf(endpoint.headers);
    for (const [name, { description, ...schema }] of Object.entries(headers.properties)) {
      parameters.push({ name, in: 'header', required: headers.required.includes(name), ...(description ? { description } : {}), schema });
    }
  }
  return parameters;
}

function operationOf(endpoint: Endpoint): Record<string, unknown> {
  const parameters = parametersOf(endpoint);
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    tags: [endpoint.audience],
    'x-audience': endpoint.audience,
    security: endpoint.audience === 'rp' ? [{ [API_KEY]: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(endpoint.body
      ? { requestBody: { required: endpoint.body.required, content: { [endpoint.body.contentType]: { schema: schemaOf(endpoint.body.schema) } } } }
      : {}),
    responses: Object.fromEntries(
      Object.entries(responsesOf(endpoint)).map(([status, spec]) => [status, responseObject(spec, Number(status))]),
    ),
  };
}

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Record<string, unknown>>> };

/**
 * The OpenAPI 3.1 document of an endpoint table: paths relative to the mount point, the API-key
 * bearer scheme on RP operations, every status an operation answers with its body schema.
 */
export function buildOpenApiDocument(endpoints: readonly Endpoint[]): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const endpoint of endpoints) (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = operationOf(endpoint);
  const { ...defs } = toJsonSchemaDefs(COMPONENTS, { target: CONVERSION.target!, typeMode: CONVERSION.typeMode!, errorMode: CONVERSION.errorMode!, overrideRef: CONVERSION.overrideRef! });
  return {
    openapi: '3.1.0',
    info: {
      title: 'vp-authorizer HTTP API',
      version: '1.0.0',
      description:
        'OpenID4VP authorizations, wire-compatible with the hosted authorizer API (see docs/http-api.md for the differences). Paths are relative to where the authorizer is mounted.',
    },
    tags: [
      { name: 'rp', description: 'Relying-party backend; Authorization: Bearer <API key>. Errors: Error.' },
      { name: 'wallet', description: 'Called by wallets, unauthenticated. Errors: WalletError (OAuth style).' },
      { name: 'public', description: 'Unauthenticated metadata.' },
    ],
    paths,
    components: {
      securitySchemes: { [API_KEY]: { type: 'http', scheme: 'bearer', description: 'An API key of the authorizer instance.' } },
      schemas: Object.fromEntries(Object.entries(defs).map(([name, schema]) => [name, stripDialect(schema)])),
    },
  };
}

const stripDialect = (schema: JsonSchema): JsonSchema => {
  const { $schema: _dialect, ...rest } = schema as JsonSchema & { $schema?: string };
  return rest;
};
