/**
 * Keys of the interface messages of spec section 8 that are not server error codes. Texts with
 * placeholders take params: serverConnectionError {text}, serverErrorAt {path, text},
 * fileNotFoundAt {url}, fileUploadError {path, reason, name}, passwordExpiresSoon {days}.
 */
export const NOTICE_KEYS = [
  "success",
  "accessDenied",
  "informationUpdated",
  "tooLargeFile",
  "actionRequired",
  "serverCommunicationError",
  "serverConnectionError",
  "serverErrorAt",
  "fileNotFoundAt",
  "permissionDenied",
  "fileUploadSuccess",
  "fileUploadError",
  "passwordExpiresSoon",
  "passwordExpired",
  "newPasswordSent",
  "chatNotFound",
  "invalidBotToken",
  "providerBadConfiguration",
  "testMessageNotSent",
  "providerInUse",
  "demoSavingForbidden",
  "tapAgain",
  "deviceMonitor",
  "passwordMonitor",
] as const;

/** An interface message key. */
export type NoticeKey = (typeof NOTICE_KEYS)[number];
