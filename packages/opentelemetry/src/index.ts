export { INSTRUMENTATION_SCOPE, openTelemetryInstrumentation, type OpenTelemetryOptions } from './opentelemetry-instrumentation.js';
export { METRICS } from './metric-names.js';
