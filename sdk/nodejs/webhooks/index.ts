// Receiving webhooks: signature verification and typed parsing of events.
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  InvalidWebhookPayloadError,
  parseWebhookEvent,
  verifyWebhookSignature,
  type VerifyWebhookSignatureInput,
  type WebhookHeaders,
} from "./verifySignature.ts";
