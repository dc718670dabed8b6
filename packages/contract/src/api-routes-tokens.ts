// The web's routes of personal API tokens (ADR 040; the route map: api-paths.ts).

import { call, type In, type NoBody, type Ok, type Out } from "./api-route-kinds";
import type {
  ApiTokenListSchema,
  ApiTokenOptionsSchema,
  CreateApiTokenSchema,
  CreatedApiTokenSchema,
} from "./api-tokens";

export const TOKEN_ROUTES = {
  "POST /api/tokens": call<NoBody, Out<typeof ApiTokenListSchema>>(),
  "POST /api/tokens/options": call<NoBody, Out<typeof ApiTokenOptionsSchema>>(),
  "POST /api/tokens/new": call<In<typeof CreateApiTokenSchema>, Out<typeof CreatedApiTokenSchema>>(),
  "DELETE /api/tokens/{tokenId}": call<NoBody, Ok>(),
  "POST /api/tokens/domain": call<NoBody, Out<typeof ApiTokenListSchema>>(),
  "DELETE /api/tokens/domain/{tokenId}": call<NoBody, Ok>(),
} as const;
