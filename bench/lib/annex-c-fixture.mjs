// What every Annex C (org-iso-mdoc) bench measures: a test issuer, a wallet holding one mDL of
// three elements, and the DC API create body asking for those three elements.
export const ORIGIN = 'https://rp.example';
export const MDL = 'org.iso.18013.5.1.mDL';
export const NS = 'org.iso.18013.5.1';
const CLAIMS = ['family_name', 'given_name', 'age_over_18'];

export const annexCCreateBody = {
  responseMode: 'dc_api',
  protocol: 'org-iso-mdoc',
  expectedOrigins: [ORIGIN],
  query: { type: 'DCQL', dcql: { credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: MDL }, claims: CLAIMS.map((c) => ({ path: [NS, c] })) }] } },
};

/** The issuer and a wallet holding its mDL. */
export async function annexCIssuerAndWallet() {
  const { createTestIssuer, createTestWallet } = await import('@vp-authorizer/testing');
  const issuer = await createTestIssuer();
  const wallet = await createTestWallet();
  await wallet.addMdoc(issuer, { docType: MDL, namespaces: { [NS]: { family_name: 'Mustermann', given_name: 'Erika', age_over_18: true } } });
  return { issuer, wallet };
}
