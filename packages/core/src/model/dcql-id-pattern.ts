/** Pattern of DCQL credential and claim query ids (OpenID4VP 1.0 section 6). */
export const DCQL_ID_PATTERN = /^[A-Za-z0-9_-]+$/;
