import {
  CreateWebhookRegistrationRequestSchema,
  CreatedWebhookRegistrationSchema,
  WebhookRegistrationListSchema,
  WebhookRegistrationSchema,
  WebhookStatusUpdateRequestSchema,
  type CreateWebhookRegistrationRequest,
  type CreatedWebhookRegistration,
  type PageQuery,
  type WebhookRegistration,
  type WebhookStatusUpdateRequest,
} from "../../contract/index.ts";
import { PagePromise } from "../core/pagination.ts";
import type { RequestOptions } from "../core/requester.ts";
import { ApiResource } from "../core/resource.ts";
import { queryOfPage } from "../internal/queryOfPage.ts";
import { pathSegment } from "../internal/pathSegment.ts";

// Webhook endpoints carry no version prefix (spec 9.1).
const REGISTRATIONS = "/webhooks/registrations";
const registration = (registrationId: string) =>
  `${REGISTRATIONS}/${pathSegment("registrationId", registrationId)}`;

/** Webhook registrations (spec 4.13; listing and deletion per docs/spec-gaps.md). */
export class WebhookRegistrations extends ApiResource {
  /**
   * Subscribes a URL to event types (POST /webhooks/registrations). The answer carries the
   * signing `secret`, returned this once only. Retried only when `body.requestId` is set.
   */
  async create(
    body: CreateWebhookRegistrationRequest,
    options?: RequestOptions,
  ): Promise<CreatedWebhookRegistration> {
    return this.requester.request({
      method: "POST",
      path: REGISTRATIONS,
      body,
      requestSchema: CreateWebhookRegistrationRequestSchema,
      schema: CreatedWebhookRegistrationSchema,
      options,
    });
  }

  /** Reads one registration (GET /webhooks/registrations/{id}). */
  async retrieve(registrationId: string, options?: RequestOptions): Promise<WebhookRegistration> {
    return this.requester.request({
      method: "GET",
      path: registration(registrationId),
      schema: WebhookRegistrationSchema,
      options,
    });
  }

  /** Lists registrations, newest first (GET /webhooks/registrations). */
  list(query?: PageQuery, options?: RequestOptions): PagePromise<WebhookRegistration> {
    return new PagePromise((cursor) =>
      this.requester.request({
        method: "GET",
        path: REGISTRATIONS,
        query: queryOfPage(query, cursor),
        schema: WebhookRegistrationListSchema,
        options,
      }),
    );
  }

  /** Activates or disables a registration (PATCH /webhooks/registrations/{id}/status). */
  async updateStatus(
    registrationId: string,
    body: WebhookStatusUpdateRequest,
    options?: RequestOptions,
  ): Promise<WebhookRegistration> {
    return this.requester.request({
      method: "PATCH",
      path: `${registration(registrationId)}/status`,
      body,
      requestSchema: WebhookStatusUpdateRequestSchema,
      schema: WebhookRegistrationSchema,
      options,
    });
  }

  /** Deletes a registration (DELETE /webhooks/registrations/{id}, 204). Not retried: no requestId. */
  async delete(registrationId: string, options?: RequestOptions): Promise<void> {
    return this.requester.request({ method: "DELETE", path: registration(registrationId), options });
  }
}
