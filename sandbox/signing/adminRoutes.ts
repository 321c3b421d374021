import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { z } from "zod";
import type { SandboxContext } from "../http/context.ts";
import type { SandboxEnv } from "../http/env.ts";
import { NotFoundError } from "../domain/errors.ts";
import { HttpError } from "../http/errors.ts";
import { authMiddleware } from "../http/middleware.ts";
import { readBody } from "../http/validation.ts";
import { publicKeyFromCompressedHex, StampError } from "./stamp.ts";
import {
  deleteApproverKey,
  listApproverKeys,
  upsertApproverKey,
  type ApproverKeyRecord,
} from "../store/signingProviderStore.ts";

export const PublicKeySchema = z
  .string()
  .regex(
    /^0[23][0-9a-fA-F]{64}$/,
    "must be a compressed P-256 public key: 66 hex characters starting with 02 or 03",
  )
  .transform((key) => key.toLowerCase());
export const RegisterKeySchema = z.object({
  publicKey: PublicKeySchema,
  userName: z.string().min(1).max(200).optional(),
});

const keyView = (key: ApproverKeyRecord) => ({
  organizationId: key.organizationId,
  publicKey: key.publicKey,
  userId: key.userId,
  userName: key.userName,
  createdAt: key.createdAt,
});

/**
 * Sandbox-only admin API of the signing provider (`/_sandbox/signing/...`, docs/approvals.md):
 * registers the API public keys that may approve or reject the caller's organization's signing
 * activities. The number of approvals needed is the organization's policy (`PUT /_sandbox/policy`).
 * Mounted ahead of the app-wide bearer check, so it applies that check itself.
 */
export function signingAdminRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  routes.use("*", authMiddleware(ctx));

  routes.get("/api-keys", (c) =>
    c.json({ data: listApproverKeys(ctx.db, c.get("organizationId")).map(keyView) }),
  );

  routes.post("/api-keys", async (c) => {
    const body = await readBody(c, RegisterKeySchema);
    try {
      publicKeyFromCompressedHex(body.publicKey);
    } catch (error) {
      if (!(error instanceof StampError)) throw error;
      throw HttpError.validation([{ field: "publicKey", reason: "is not a point on the P-256 curve" }]);
    }
    const organizationId = c.get("organizationId");
    const userId = randomUUID();
    const { key, created } = upsertApproverKey(ctx.db, {
      organizationId,
      publicKey: body.publicKey,
      userId,
      userName: body.userName ?? `approver ${userId.slice(0, 8)}`,
      createdAt: ctx.clocks.now(organizationId).toISOString(),
    });
    return c.json(keyView(key), created ? 201 : 200);
  });

  routes.delete("/api-keys/:publicKey", (c) => {
    const parsed = PublicKeySchema.safeParse(c.req.param("publicKey"));
    if (!parsed.success)
      throw HttpError.validation(
        [{ field: "publicKey", reason: parsed.error.issues[0]?.message ?? "is invalid" }],
        "invalid path parameter",
      );
    if (!deleteApproverKey(ctx.db, c.get("organizationId"), parsed.data))
      throw new NotFoundError(`approver API key ${parsed.data}`);
    return c.body(null, 204);
  });
  return routes;
}
