/** Wallet metadata (OpenID4VP 1.0 section 10.1) for a HAIP-capable wallet with ES256 keys. */
export const DEFAULT_WALLET_METADATA: Record<string, unknown> = {
  vp_formats_supported: {
    'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
    mso_mdoc: { issuerauth_alg_values: [-7], deviceauth_alg_values: [-7] },
    jwt_vc_json: { alg_values: ['ES256'] },
  },
  client_id_prefixes_supported: ['x509_hash'],
  request_object_signing_alg_values_supported: ['ES256'],
  authorization_encryption_alg_values_supported: ['ECDH-ES'],
  authorization_encryption_enc_values_supported: ['A128GCM', 'A256GCM'],
  response_types_supported: ['vp_token', 'vp_token id_token'],
  response_modes_supported: ['direct_post', 'direct_post.jwt', 'dc_api', 'dc_api.jwt'],
};
