export * from "./commands";
export * from "./machine";
export * from "./scripts";
