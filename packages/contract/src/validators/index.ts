export * from "./choices";
export * from "./contact";
export * from "./files";
export * from "./keys";
export * from "./numbers";
export * from "./password";
export * from "./text";
export * from "./textSchemas";
