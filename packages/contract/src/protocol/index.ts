// The device protocol: MQTT topics, message schemas, the device token. docs/device-protocol.md explains it.
export * from "./collect";
export * from "./examples";
export {
  LINK_STATES,
  type LinkState,
  MAX_DEVICE_TIME_MS,
  REPORT_NAME_MAX_LENGTH,
  REPORT_TEXT_MAX_LENGTH,
} from "./fields";
export * from "./messages";
export * from "./notice";
export * from "./parse";
export * from "./token";
export * from "./topics";
export * from "./tunnel";
