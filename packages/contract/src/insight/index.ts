// Device insight and onboarding (issue 18): signal history, data usage per SIM, connecting a router.
export * from "./api";
export * from "./changes";
export * from "./keys";
export * from "./signal";
export * from "./timeline";
export * from "./uptime";
export * from "./uptime-mail";
export * from "./usage";
