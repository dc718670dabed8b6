export * from "./errors";
export * from "./policy";
export * from "./realtime";
export * from "./roles";
export * from "./routes";
export * from "./session";
