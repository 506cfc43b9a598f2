// What the demo's relying party can ask for, as DCQL queries (OpenID4VP 1.0 section 6). Plain data
// without imports: the verifier page loads this file too (/assets/asks.js), so its labels and
// purposes come from the one place the queries are written.

const PID = {
  id: 'pid',
  format: 'dc+sd-jwt',
  meta: { vct_values: ['urn:eudi:pid:1'] },
  claims: [{ path: ['given_name'] }, { path: ['family_name'] }, { path: ['birthdate'] }, { path: ['address'] }],
};

const MDL_NAMESPACE = 'org.iso.18013.5.1';
const MDL = {
  id: 'mdl',
  format: 'mso_mdoc',
  meta: { doctype_value: 'org.iso.18013.5.1.mDL' },
  claims: ['given_name', 'family_name', 'birth_date', 'document_number', 'driving_privileges'].map((name) => ({ path: [MDL_NAMESPACE, name] })),
};

/**
 * Each choice of the verifier page: its label, its DCQL query, and the purpose the page proposes
 * for it (naming the claims that query asks for; the person may rewrite it).
 */
export const ASKS = {
  pid: { label: 'PID (SD-JWT VC)', dcql: { credentials: [PID] }, purpose: 'To open your account we need your name, date of birth and address from your PID.' },
  // mdocs alone: the Digital Credentials API offers ISO/IEC 18013-7 Annex C (Apple Wallet) beside OpenID4VP.
  mdl: {
    label: 'Mobile driving licence (mdoc)',
    dcql: { credentials: [MDL] },
    annexC: true,
    purpose: 'To check that you may drive we need your name, date of birth, licence number and driving privileges from your driving licence.',
  },
  // One credential set with two options: the wallet presents whichever it holds.
  either: {
    label: 'PID or mobile driving licence',
    dcql: { credentials: [PID, MDL], credential_sets: [{ options: [['pid'], ['mdl']] }] },
    purpose: 'To open your account we need your name and date of birth, from your PID (with your address) or from your driving licence (with its number and driving privileges).',
  },
  both: {
    label: 'PID and mobile driving licence',
    dcql: { credentials: [PID, MDL] },
    purpose: 'To open your account and check that you may drive we need your name, date of birth and address from your PID, and the number and driving privileges of your driving licence.',
  },
};

/**
 * The page's flows: a QR code / same-device link (redirect flow, direct_post.jwt), or the browser's
 * Digital Credentials API with an unsigned or signed request (dc_api.jwt).
 */
export const FLOWS = {
  redirect: { responseMode: 'direct_post.jwt' },
  'dc-api-unsigned': { responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-unsigned' },
  'dc-api-signed': { responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-signed' },
};

/** ISO/IEC 18013-7 Annex C over the Digital Credentials API: mdoc queries only, no purpose, no HAIP profile. */
export const ANNEX_C_PROTOCOL = 'org-iso-mdoc';

/** The `verifier_info` entry format the demo uses to hand its purpose text to the wallet. */
export const PURPOSE_FORMAT = 'purpose';
export const MAX_PURPOSE_LENGTH = 300;
