export * from "./commands";
export * from "./machine";
