import type { FeatureModule } from "../../platform/feature-module";
import type { ZeroTouchCheck } from "../ingest/ingest.hooks";
import { createZeroTouchCheck } from "./zerotouch.join";
import { zeroTouchRoutes } from "./zerotouch.routes";

/** Zero-touch: configurations and adoptions; it answers the gateway's `zt1:` CONNECTs (hook "ingest.zeroTouch"). */
export const zeroTouchModule: FeatureModule = {
  name: "zerotouch",
  routes: zeroTouchRoutes,
  setUp(ctx) {
    const check: ZeroTouchCheck = createZeroTouchCheck(ctx);
    ctx.hooks.fill("ingest.zeroTouch", check);
  },
};
