export * from "./deliveries";
export * from "./messages";
export * from "./monitors";
export * from "./news";
export * from "./rules";
export * from "./texts";
export * from "./transports";
