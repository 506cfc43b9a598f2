export { StatusListClient, type StatusListClientOptions, type StatusLookup } from './status-list-client.js';
export { decodeStatusList, readStatusValue, STATUS_VALID, STATUS_INVALID, STATUS_SUSPENDED, type StatusList } from './read-status-value.js';
export { StatusListError } from './status-list-error.js';
