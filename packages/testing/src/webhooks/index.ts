export { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from './webhook-receiver.js';
export { webhookSignatureProblem } from './verify-webhook-signature.js';
