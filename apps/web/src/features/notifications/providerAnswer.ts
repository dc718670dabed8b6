import type { ChatLookupAnswer, TestTransportAnswer } from "@cellfleet/contract";
import { notice } from "../../app/messages/texts";

/**
 * What a provider's answer says to a person (spec section 8): chat not found, invalid token on
 * 401, a bad configuration or a test message not sent with the provider's own words; `sent` when it went.
 */
export function testAnswerText(answer: TestTransportAnswer | ChatLookupAnswer, sent: string): string {
  if (answer.ok) return sent;
  switch (answer.reason) {
    case "chat_not_found":
      return notice("chatNotFound");
    case "invalid_token":
      return notice("invalidBotToken");
    case "bad_configuration":
      return `${notice("providerBadConfiguration")}: ${answer.description}`;
    default:
      return `${notice("testMessageNotSent")}: ${answer.description}`;
  }
}
