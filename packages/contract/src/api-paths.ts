// The web's map of the API (spec section 7): each `METHOD /api/path/{param}` the console calls, with
// the body it sends and the answer (or the streamed lines) it gets, as the contract's schemas infer
// them. The server validates both with the same schemas; apps/server's `api-routes.test.ts` holds
// every key to a route the server registers. Type-only imports: no zod at run time, so the web's
// signed-in start may name these types without loading it (ADR 026).
import type { z } from "zod";
import type {
  CreateDomainBodySchema,
  CreateManagerSchema,
  DomainDetailSchema,
  DomainListAnswerSchema,
  DomainListRequestSchema,
  ManagerListAnswerSchema,
  SuperuserListRequestSchema,
  UpdateDomainBodySchema,
  UpdateManagerSchema,
} from "./accounting/domains";
import type {
  CreatePolicySchema,
  PolicyDetailSchema,
  PolicyListAnswerSchema,
  PolicyListRequestSchema,
  UpdatePolicySchema,
} from "./accounting/policies";
import type {
  ForgotPasswordRequestSchema,
  RegistrationAnswerSchema,
  RegistrationCodeRequestSchema,
  RegistrationRequestSchema,
  ResetPasswordAnswerSchema,
  ResetPasswordRequestSchema,
} from "./accounting/registration";
import type {
  AccountingUserSchema,
  CreateAccountingUserSchema,
  UpdateAccountingUserSchema,
  UserListAnswerSchema,
  UserListRequestSchema,
} from "./accounting/users";
import type { WebActionsAnswerSchema, WebActionsRequestSchema } from "./accounting/web-actions";
import type {
  CommandDecisionSchema,
  CommandDryRunSchema,
  CommandSchema,
  CommandsRequestSchema,
  CommandTypeSchema,
  CommandTypesAnswerSchema,
  CreateCommandSchema,
  CreateCommandTypeSchema,
  ExecutionSchema,
  ReportsRequestSchema,
} from "./commands/commands";
import type {
  SavedScriptSchema,
  SaveScriptSchema,
  ScriptsAnswerSchema,
  ScriptsRequestSchema,
} from "./commands/scripts";
import type {
  BulkCreateDevicesResultSchema,
  BulkCreateDevicesSchema,
  CreateDeviceSchema,
  DashboardTotalsSchema,
  DeleteDeviceResultSchema,
  DeviceDetailSchema,
  DeviceListLineSchema,
  DeviceListRequestSchema,
  DeviceSchema,
  DevicesMultipleResultSchema,
  DevicesMultipleSchema,
  TagFrequencySchema,
  UpdateDeviceSchema,
} from "./devices";
import type {
  EventSchema,
  EventsReadResultSchema,
  EventsReadSchema,
  EventsRequestSchema,
  EventsUnreadSchema,
} from "./events";
import type { CSV_EXPORTS, CsvExportSection } from "./exports";
import type {
  CommonFilesRequestSchema,
  DeleteFilesRequestSchema,
  DeleteFilesResultSchema,
  FileListSchema,
  FileSchema,
  RenameFileSchema,
} from "./files";
import type { SaveSoftwareRuleSchema, SoftwareRuleSchema, SoftwareRulesAnswerSchema } from "./firmware";
import type {
  BrokersSchema,
  DeviceConnectInfoSchema,
  DeviceUsageSchema,
  NewDeviceKeySchema,
  SetSimPlanSchema,
  SetTagPlanSchema,
  SignalDeclinesSchema,
  SignalHistoryRequestSchema,
  SignalHistorySchema,
  SimPlanSavedSchema,
  TagPlansSchema,
} from "./insight/api";
import type { JobRetryAnswerSchema, JobsAnswerSchema, JobsRequestSchema } from "./jobs";
import type {
  AddLicenseRequestSchema,
  LicenseAnswerSchema,
  LicenseFingerprintAnswerSchema,
  LicensesAnswerSchema,
  RefreshLicensesAnswerSchema,
  RefreshLicensesRequestSchema,
  UploadLicenseRequestSchema,
} from "./licenses";
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
import type { RolloutDryRunRequestSchema, RolloutDryRunSchema } from "./rollout";
import type { LatestRolloutSchema, RolloutProgressSchema, RolloutStartRequestSchema } from "./rollout-driver";
import type {
  ScheduleRuleActiveRequestSchema,
  ScheduleRuleAnswerSchema,
  ScheduleRuleInputSchema,
  ScheduleRulesAnswerSchema,
} from "./schedules";
import type {
  HealthSchema,
  LoginRequestSchema,
  ProfileSchema,
  ProfileUpdateSchema,
  SessionUserSchema,
} from "./session";
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

/** A JSON call: the body the console sends (the client adds the token) and the answer. */
export interface ApiCall<Body, Answer> {
  readonly kind: "call";
  readonly body: Body;
  readonly answer: Answer;
}

/** A streamed list (newline-delimited JSON): the body and one line's shape. */
export interface ApiStream<Body, Line> {
  readonly kind: "stream";
  readonly body: Body;
  readonly line: Line;
}

/** A file answer the browser saves (a stored file, a firmware image). */
export interface ApiDownload {
  readonly kind: "download";
  readonly body: NoBody;
}

/** A multipart upload of one file in the field `file`, and the answer. */
export interface ApiUpload<Answer> {
  readonly kind: "upload";
  readonly answer: Answer;
}

/** The body of a call that sends nothing but the token. */
export type NoBody = Record<string, never>;
/** The answer of calls with nothing else to say. */
export type OkAnswer = { ok: true };
type Ok = OkAnswer;
type In<S extends z.ZodType> = Omit<NonNullable<z.input<S>>, "token">;
type Out<S extends z.ZodType> = z.output<S>;

const call = <Body, Answer>() => ({ kind: "call" }) as ApiCall<Body, Answer>;
const stream = <Body, Line>() => ({ kind: "stream" }) as ApiStream<Body, Line>;
const download = () => ({ kind: "download" }) as ApiDownload;
const upload = <Answer>() => ({ kind: "upload" }) as ApiUpload<Answer>;

/** Every route the web calls, keyed `METHOD /api/path` with `{name}` for each path parameter. */
export const API_ROUTES = {
  "POST /api/login/": call<In<typeof LoginRequestSchema>, Out<typeof SessionUserSchema>>(),
  "POST /api/accounting/self": call<NoBody, Out<typeof SessionUserSchema>>(),
  "POST /api/logout/": call<NoBody, Ok>(),
  "GET /api/health": call<NoBody, Out<typeof HealthSchema>>(),
  "POST /api/profile": call<In<typeof ProfileUpdateSchema>, Out<typeof ProfileSchema>>(),
  "POST /api/registry/code": call<In<typeof RegistrationCodeRequestSchema>, Ok>(),
  "POST /api/registry": call<In<typeof RegistrationRequestSchema>, Out<typeof RegistrationAnswerSchema>>(),
  "POST /api/password/forgot": call<In<typeof ForgotPasswordRequestSchema>, Ok>(),
  "POST /api/password/reset": call<
    In<typeof ResetPasswordRequestSchema>,
    Out<typeof ResetPasswordAnswerSchema>
  >(),
  "POST /api/devices/": stream<In<typeof DeviceListRequestSchema>, Out<typeof DeviceListLineSchema>>(),
  "POST /api/dashboard/": call<NoBody, Out<typeof DashboardTotalsSchema>>(),
  "POST /api/tags/": call<NoBody, Out<typeof TagFrequencySchema>>(),
  "POST /api/devices/new": call<In<typeof CreateDeviceSchema>, Out<typeof DeviceSchema>>(),
  "POST /api/devices/bulk": call<
    In<typeof BulkCreateDevicesSchema>,
    Out<typeof BulkCreateDevicesResultSchema>
  >(),
  "POST /api/devices/multiple/": call<
    In<typeof DevicesMultipleSchema>,
    Out<typeof DevicesMultipleResultSchema>
  >(),
  "POST /api/device/{dev_id}": call<NoBody, Out<typeof DeviceDetailSchema>>(),
  "POST /api/device/{dev_id}/edit": call<In<typeof UpdateDeviceSchema>, Out<typeof DeviceSchema>>(),
  "DELETE /api/device/{dev_id}": call<NoBody, Out<typeof DeleteDeviceResultSchema>>(),
  "POST /api/device/{dev_id}/signal": call<
    In<typeof SignalHistoryRequestSchema>,
    Out<typeof SignalHistorySchema>
  >(),
  "POST /api/device/{dev_id}/usage": call<NoBody, Out<typeof DeviceUsageSchema>>(),
  "POST /api/device/{dev_id}/connect": call<NoBody, Out<typeof DeviceConnectInfoSchema>>(),
  "POST /api/device/{dev_id}/key": call<NoBody, Out<typeof NewDeviceKeySchema>>(),
  "POST /api/devices/connect": call<NoBody, Out<typeof BrokersSchema>>(),
  "POST /api/sim/{iccid}/plan": call<In<typeof SetSimPlanSchema>, Out<typeof SimPlanSavedSchema>>(),
  "POST /api/plans": call<NoBody, Out<typeof TagPlansSchema>>(),
  "POST /api/plans/tag": call<In<typeof SetTagPlanSchema>, Out<typeof TagPlansSchema>>(),
  "POST /api/dashboard/signal": call<NoBody, Out<typeof SignalDeclinesSchema>>(),
  "POST /api/events/all": stream<In<typeof EventsRequestSchema>, Out<typeof EventSchema>>(),
  "POST /api/events/{dev_id}": stream<In<typeof EventsRequestSchema>, Out<typeof EventSchema>>(),
  "POST /api/events/read": call<In<typeof EventsReadSchema>, Out<typeof EventsReadResultSchema>>(),
  "POST /api/events/unread": call<NoBody, Out<typeof EventsUnreadSchema>>(),
  "POST /api/commands/": stream<In<typeof CommandsRequestSchema>, Out<typeof CommandSchema>>(),
  "POST /api/commands/dry-run": call<In<typeof CreateCommandSchema>, Out<typeof CommandDryRunSchema>>(),
  "POST /api/command/new": call<In<typeof CreateCommandSchema>, Out<typeof CommandSchema>>(),
  "POST /api/command/{command_id}": call<NoBody, Out<typeof CommandSchema>>(),
  "POST /api/command/{command_id}/approve": call<
    In<typeof CommandDecisionSchema>,
    Out<typeof CommandSchema>
  >(),
  "POST /api/command/{command_id}/decline": call<
    In<typeof CommandDecisionSchema>,
    Out<typeof CommandSchema>
  >(),
  "POST /api/command/{command_id}/cancel": call<NoBody, Out<typeof CommandSchema>>(),
  "POST /api/command/{command_id}/retry-failed": call<NoBody, Out<typeof CommandSchema>>(),
  "POST /api/reports/": stream<In<typeof ReportsRequestSchema>, Out<typeof ExecutionSchema>>(),
  "POST /api/report/{device_id}/{report_id}": call<NoBody, Out<typeof ExecutionSchema>>(),
  "POST /api/command_types": call<NoBody, Out<typeof CommandTypesAnswerSchema>>(),
  "POST /api/command_type": call<In<typeof CreateCommandTypeSchema>, Out<typeof CommandTypeSchema>>(),
  "DELETE /api/command_type/{id}": call<NoBody, Ok>(),
  "POST /api/scripts/": call<In<typeof ScriptsRequestSchema>, Out<typeof ScriptsAnswerSchema>>(),
  "POST /api/script/new": call<In<typeof SaveScriptSchema>, Out<typeof SavedScriptSchema>>(),
  "POST /api/script/{id}": call<NoBody, Out<typeof SavedScriptSchema>>(),
  "POST /api/script/{id}/save": call<In<typeof SaveScriptSchema>, Out<typeof SavedScriptSchema>>(),
  "DELETE /api/script/{id}": call<NoBody, Ok>(),
  "POST /api/templates/": call<In<typeof ScriptsRequestSchema>, Out<typeof ScriptsAnswerSchema>>(),
  "POST /api/template/new": call<In<typeof SaveScriptSchema>, Out<typeof SavedScriptSchema>>(),
  "POST /api/template/{id}": call<NoBody, Out<typeof SavedScriptSchema>>(),
  "POST /api/template/{id}/save": call<In<typeof SaveScriptSchema>, Out<typeof SavedScriptSchema>>(),
  "DELETE /api/template/{id}": call<NoBody, Ok>(),
  "POST /api/commonfiles": call<In<typeof CommonFilesRequestSchema>, Out<typeof FileListSchema>>(),
  "POST /api/files/{fileId}": call<Partial<In<typeof RenameFileSchema>>, Out<typeof FileSchema>>(),
  "GET /api/file/{fileId}": download(),
  "DELETE /api/file/{fileId}": call<NoBody, Out<typeof DeleteFilesResultSchema>>(),
  "DELETE /api/file/many": call<
    Partial<In<typeof DeleteFilesRequestSchema>>,
    Out<typeof DeleteFilesResultSchema>
  >(),
  "POST /api/file/{kind}": upload<Out<typeof FileSchema>>(),
  "POST /api/upload/{file_type}": upload<Out<typeof FileSchema>>(),
  "POST /api/firmwares": call<NoBody, Out<typeof SoftwareRulesAnswerSchema>>(),
  "POST /api/software/new": call<In<typeof SaveSoftwareRuleSchema>, Out<typeof SoftwareRuleSchema>>(),
  "POST /api/software/{id}": call<NoBody, Out<typeof SoftwareRuleSchema>>(),
  "POST /api/software/{id}/save": call<In<typeof SaveSoftwareRuleSchema>, Out<typeof SoftwareRuleSchema>>(),
  "POST /api/software/{id}/sync": call<NoBody, Out<typeof SoftwareRuleSchema>>(),
  "DELETE /api/software/{id}": call<NoBody, Ok>(),
  "GET /api/software/{id}/file": download(),
  "POST /api/software/{id}/rollout/dry-run": call<
    In<typeof RolloutDryRunRequestSchema>,
    Out<typeof RolloutDryRunSchema>
  >(),
  "POST /api/software/{id}/rollout": call<
    In<typeof RolloutStartRequestSchema>,
    Out<typeof RolloutProgressSchema>
  >(),
  "POST /api/software/{id}/rollouts": call<NoBody, Out<typeof LatestRolloutSchema>>(),
  "POST /api/rollout/{rollout_id}/pause": call<NoBody, Out<typeof RolloutProgressSchema>>(),
  "POST /api/rollout/{rollout_id}/resume": call<NoBody, Out<typeof RolloutProgressSchema>>(),
  "POST /api/rollout/{rollout_id}/cancel": call<NoBody, Out<typeof RolloutProgressSchema>>(),
  "POST /api/rollout/{rollout_id}/retry": call<NoBody, Out<typeof RolloutProgressSchema>>(),
  "POST /api/licenses": call<NoBody, Out<typeof LicensesAnswerSchema>>(),
  "POST /api/licenses/new": call<In<typeof AddLicenseRequestSchema>, Out<typeof LicenseAnswerSchema>>(),
  "POST /api/licenses/update": call<
    In<typeof RefreshLicensesRequestSchema>,
    Out<typeof RefreshLicensesAnswerSchema>
  >(),
  "POST /api/licenses/fingerprint": call<NoBody, Out<typeof LicenseFingerprintAnswerSchema>>(),
  "POST /api/licenses/upload": call<In<typeof UploadLicenseRequestSchema>, Out<typeof LicenseAnswerSchema>>(),
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
  "POST /api/jobs/": call<In<typeof JobsRequestSchema>, Out<typeof JobsAnswerSchema>>(),
  "POST /api/job/{jobId}/retry": call<NoBody, Out<typeof JobRetryAnswerSchema>>(),
  "POST /api/domains/": call<In<typeof DomainListRequestSchema>, Out<typeof DomainListAnswerSchema>>(),
  "POST /api/domains/new": call<In<typeof CreateDomainBodySchema>, Out<typeof DomainDetailSchema>>(),
  "POST /api/domain/{domainId}": call<In<typeof UpdateDomainBodySchema>, Out<typeof DomainDetailSchema>>(),
  "POST /api/domain/{domainId}/admins/new": call<
    In<typeof CreateManagerSchema>,
    Out<typeof AccountingUserSchema>
  >(),
  "POST /api/domain/{domainId}/admins/{userId}": call<
    In<typeof UpdateManagerSchema>,
    Out<typeof AccountingUserSchema>
  >(),
  "DELETE /api/domain/{domainId}/admins/{userId}": call<NoBody, Ok>(),
  "POST /api/superusers/": call<In<typeof SuperuserListRequestSchema>, Out<typeof ManagerListAnswerSchema>>(),
  "POST /api/superuser/new": call<In<typeof CreateManagerSchema>, Out<typeof AccountingUserSchema>>(),
  "POST /api/superuser/{userId}": call<In<typeof UpdateManagerSchema>, Out<typeof AccountingUserSchema>>(),
  "DELETE /api/superuser/{userId}": call<NoBody, Ok>(),
  "POST /api/users/": call<In<typeof UserListRequestSchema>, Out<typeof UserListAnswerSchema>>(),
  "POST /api/user/new": call<In<typeof CreateAccountingUserSchema>, Out<typeof AccountingUserSchema>>(),
  "POST /api/user/{userId}": call<In<typeof UpdateAccountingUserSchema>, Out<typeof AccountingUserSchema>>(),
  "DELETE /api/user/{userId}": call<NoBody, Ok>(),
  "POST /api/policies/": call<In<typeof PolicyListRequestSchema>, Out<typeof PolicyListAnswerSchema>>(),
  "POST /api/policy/new": call<In<typeof CreatePolicySchema>, Out<typeof PolicyDetailSchema>>(),
  "POST /api/policy/{policyId}": call<In<typeof UpdatePolicySchema>, Out<typeof PolicyDetailSchema>>(),
  "POST /api/policy/{policyId}/dictionary/{kind}": upload<Out<typeof PolicyDetailSchema>>(),
  "POST /api/web_actions/": call<In<typeof WebActionsRequestSchema>, Out<typeof WebActionsAnswerSchema>>(),
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

export type ApiRoutes = typeof API_ROUTES;
export type ApiRoute = keyof ApiRoutes;
type RouteOfKind<K extends string> = {
  [R in ApiRoute]: ApiRoutes[R]["kind"] extends K ? R : never;
}[ApiRoute];
/** Routes answered with JSON. */
export type ApiCallRoute = RouteOfKind<"call">;
/** Routes answered with newline-delimited JSON. */
export type ApiStreamRoute = RouteOfKind<"stream">;
/** Routes that take a multipart file. */
export type ApiUploadRoute = RouteOfKind<"upload">;
/** A list's CSV export (spec section 7's `EXPORT /api/{section}`, served as `POST {path}/export`, ADR 024). */
export type CsvExportRoute = `POST ${(typeof CSV_EXPORTS)[CsvExportSection]["path"]}/export`;
/** Routes whose answer the browser saves as a file. */
export type ApiDownloadRoute = RouteOfKind<"download"> | CsvExportRoute;

/** The names of a path's `{parameters}`. */
export type ApiParamName<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ApiParamName<Rest>
  : never;
/** The path parameters of a route, each a string the client encodes into the path. */
export type ApiParams<R extends string> = { readonly [K in ApiParamName<R>]: string };
/** The body a route takes (without the token, which the client adds). */
export type ApiBody<R extends ApiRoute> = ApiRoutes[R]["body" & keyof ApiRoutes[R]];
/** What a JSON call or an upload answers. */
export type ApiAnswer<R extends ApiCallRoute | ApiUploadRoute> = ApiRoutes[R]["answer" & keyof ApiRoutes[R]];
/** One line of a streamed list. */
export type ApiLine<R extends ApiStreamRoute> = ApiRoutes[R]["line"];
