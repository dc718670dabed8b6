// The web's routes of domain settings, event types, schedule rules, notifications and zero-touch
// (the route map: api-paths.ts).
import { call, type In, type NoBody, type Ok, type Out } from "./api-route-kinds";
import type {
  DeliveryListAnswerSchema,
  DeliveryListRequestSchema,
  DeliveryResendAnswerSchema,
} from "./notifications/deliveries";
import type { NewsAnswerSchema, NewsSeenSchema } from "./notifications/news";
import type {
  RuleActiveSchema,
  RuleFieldsSchema,
  RuleListAnswerSchema,
  RuleListRequestSchema,
  RuleSchema,
} from "./notifications/rules";
import type {
  ChatLookupAnswerSchema,
  ChatLookupSchema,
  CreateTransportSchema,
  TestTransportAnswerSchema,
  TestTransportSchema,
  TransportListAnswerSchema,
  TransportListRequestSchema,
  TransportSchema,
  UpdateTransportSchema,
} from "./notifications/transports";
import type {
  ScheduleRuleActiveRequestSchema,
  ScheduleRuleAnswerSchema,
  ScheduleRuleInputSchema,
  ScheduleRulesAnswerSchema,
} from "./schedules";
import type {
  DomainSettingsAnswerSchema,
  EventTypeActiveRequestSchema,
  EventTypeAnswerSchema,
  EventTypesAnswerSchema,
  SaveDomainSettingsRequestSchema,
} from "./settings";
import type {
  AcceptAdoptionSchema,
  AdoptionSchema,
  AdoptionsAnswerSchema,
  AdoptionsRequestSchema,
  ZeroTouchConfigInputSchema,
  ZeroTouchConfigSchema,
  ZeroTouchConfigsAnswerSchema,
  ZeroTouchSecretAnswerSchema,
} from "./zerotouch";

export const CONSOLE_ROUTES = {
  "POST /api/settings/all": call<NoBody, Out<typeof DomainSettingsAnswerSchema>>(),
  "PATCH /api/settings/domains-all": call<
    In<typeof SaveDomainSettingsRequestSchema>,
    Out<typeof DomainSettingsAnswerSchema>
  >(),
  "POST /api/event_types": call<NoBody, Out<typeof EventTypesAnswerSchema>>(),
  "PATCH /api/event_type/{id}": call<
    In<typeof EventTypeActiveRequestSchema>,
    Out<typeof EventTypeAnswerSchema>
  >(),
  "POST /api/crontab/all": call<NoBody, Out<typeof ScheduleRulesAnswerSchema>>(),
  "POST /api/crontab/{class}": call<
    In<typeof ScheduleRuleInputSchema>,
    Out<typeof ScheduleRuleAnswerSchema>
  >(),
  "POST /api/crontab/{class}/{id}": call<NoBody, Out<typeof ScheduleRuleAnswerSchema>>(),
  "PUT /api/crontab/{class}/{id}": call<
    In<typeof ScheduleRuleInputSchema>,
    Out<typeof ScheduleRuleAnswerSchema>
  >(),
  "PATCH /api/crontab/{class}/{id}": call<
    In<typeof ScheduleRuleActiveRequestSchema>,
    Out<typeof ScheduleRuleAnswerSchema>
  >(),
  "POST /api/notifications/news": call<NoBody, Out<typeof NewsAnswerSchema>>(),
  "POST /api/notifications/news/seen": call<In<typeof NewsSeenSchema>, Out<typeof NewsAnswerSchema>>(),
  "POST /api/notifications/rules": call<In<typeof RuleListRequestSchema>, Out<typeof RuleListAnswerSchema>>(),
  "POST /api/notifications/rule/new": call<In<typeof RuleFieldsSchema>, Out<typeof RuleSchema>>(),
  "POST /api/notifications/rule/{id}": call<NoBody, Out<typeof RuleSchema>>(),
  "PUT /api/notifications/rule/{id}": call<In<typeof RuleFieldsSchema>, Out<typeof RuleSchema>>(),
  "PATCH /api/notifications/rule/{id}": call<In<typeof RuleActiveSchema>, Out<typeof RuleSchema>>(),
  "DELETE /api/notifications/rule/{id}": call<NoBody, Ok>(),
  "POST /api/notifications/deliveries": call<
    In<typeof DeliveryListRequestSchema>,
    Out<typeof DeliveryListAnswerSchema>
  >(),
  "POST /api/notifications/delivery/{id}/resend": call<NoBody, Out<typeof DeliveryResendAnswerSchema>>(),
  "POST /api/notifications/transports": call<
    In<typeof TransportListRequestSchema>,
    Out<typeof TransportListAnswerSchema>
  >(),
  "POST /api/notifications/transport/new": call<
    In<typeof CreateTransportSchema>,
    Out<typeof TransportSchema>
  >(),
  "POST /api/notifications/transport/test": call<
    In<typeof TestTransportSchema>,
    Out<typeof TestTransportAnswerSchema>
  >(),
  "POST /api/notifications/transport/chats": call<
    In<typeof ChatLookupSchema>,
    Out<typeof ChatLookupAnswerSchema>
  >(),
  "POST /api/notifications/transport/{id}": call<NoBody, Out<typeof TransportSchema>>(),
  "PUT /api/notifications/transport/{id}": call<
    In<typeof UpdateTransportSchema>,
    Out<typeof TransportSchema>
  >(),
  "DELETE /api/notifications/transport/{id}": call<NoBody, Ok>(),
  "POST /api/zerotouch/configs": call<NoBody, Out<typeof ZeroTouchConfigsAnswerSchema>>(),
  "POST /api/zerotouch/config/new": call<
    In<typeof ZeroTouchConfigInputSchema>,
    Out<typeof ZeroTouchSecretAnswerSchema>
  >(),
  "POST /api/zerotouch/config/{id}": call<NoBody, Out<typeof ZeroTouchConfigSchema>>(),
  "POST /api/zerotouch/config/{id}/save": call<
    In<typeof ZeroTouchConfigInputSchema>,
    Out<typeof ZeroTouchConfigSchema>
  >(),
  "POST /api/zerotouch/config/{id}/secret": call<NoBody, Out<typeof ZeroTouchSecretAnswerSchema>>(),
  "DELETE /api/zerotouch/config/{id}": call<NoBody, Ok>(),
  "POST /api/zerotouch/adoptions": call<
    In<typeof AdoptionsRequestSchema>,
    Out<typeof AdoptionsAnswerSchema>
  >(),
  "POST /api/zerotouch/adoption/{id}/accept": call<
    In<typeof AcceptAdoptionSchema>,
    Out<typeof AdoptionSchema>
  >(),
  "POST /api/zerotouch/adoption/{id}/reject": call<NoBody, Out<typeof AdoptionSchema>>(),
} as const;
