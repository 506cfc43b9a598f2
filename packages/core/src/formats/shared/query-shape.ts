/**
 * The parts of a query the format policy reads. The authorization record's query types satisfy
 * them structurally, so the format layer needs nothing from the folders above it. Unknown
 * members are allowed, as in the queries themselves.
 */
export interface DcqlCredentialQueryShape {
  id: string;
  format: string;
  multiple?: boolean;
  [k: string]: unknown;
}

export interface DcqlQueryShape {
  credentials: readonly DcqlCredentialQueryShape[];
  credential_sets?: readonly { options: string[][]; required?: boolean }[];
  [k: string]: unknown;
}

export interface InputDescriptorShape {
  id: string;
  format?: Record<string, unknown>;
  group?: string[];
  [k: string]: unknown;
}

export interface PresentationDefinitionShape {
  id: string;
  input_descriptors: readonly InputDescriptorShape[];
  submission_requirements?: readonly Record<string, unknown>[];
  format?: Record<string, unknown>;
  [k: string]: unknown;
}

export type QueryShape = { type: 'DCQL'; dcql: DcqlQueryShape } | { type: 'DIF.PresentationExchange'; presentationDefinition: PresentationDefinitionShape };
