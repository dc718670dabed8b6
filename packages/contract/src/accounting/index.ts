export * from "./audit-actions";
export * from "./domains";
export * from "./policies";
export * from "./registration";
export * from "./users";
export * from "./web-actions";
