// The web's routes of devices, their insight and events, commands, scripts and templates, files,
// software and rollouts (the route map: api-paths.ts).
import { call, download, type In, type NoBody, type Ok, type Out, stream, upload } from "./api-route-kinds";
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
  WaitingApprovalsSchema,
} from "./commands/commands";
import type {
  SavedScriptSchema,
  SaveScriptSchema,
  ScriptsAnswerSchema,
  ScriptsRequestSchema,
} from "./commands/scripts";
import type { DeviceImportPlanSchema, DeviceImportResultSchema } from "./device-import";
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
  AgentInstallLinkSchema,
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
import type { UptimePdfRequestSchema, UptimeReportRequestSchema, UptimeReportSchema } from "./insight/uptime";
import type {
  UptimeMailRuleAnswerSchema,
  UptimeMailRuleInputSchema,
  UptimeMailRulesAnswerSchema,
} from "./insight/uptime-mail";
import type { MapClustersRequestSchema, MapClustersSchema, MapStyleSchema } from "./map";
import type { RolloutDryRunRequestSchema, RolloutDryRunSchema } from "./rollout";
import type {
  LatestRolloutSchema,
  RolloutAcceptRequestSchema,
  RolloutOffersAnswerSchema,
  RolloutProgressSchema,
  RolloutStartRequestSchema,
} from "./rollout-driver";
import type {
  ApproveTunnelSchema,
  CreateTunnelSchema,
  RecordingLineSchema,
  TunnelSessionSchema,
  TunnelSessionsSchema,
  WebTunnelOpenSchema,
} from "./tunnels";

export const FLEET_ROUTES = {
  "POST /api/devices/": stream<In<typeof DeviceListRequestSchema>, Out<typeof DeviceListLineSchema>>(),
  "POST /api/dashboard/": call<NoBody, Out<typeof DashboardTotalsSchema>>(),
  "POST /api/tags/": call<NoBody, Out<typeof TagFrequencySchema>>(),
  "POST /api/map/clusters": call<In<typeof MapClustersRequestSchema>, Out<typeof MapClustersSchema>>(),
  "POST /api/map/style": call<NoBody, Out<typeof MapStyleSchema>>(),
  "POST /api/devices/new": call<In<typeof CreateDeviceSchema>, Out<typeof DeviceSchema>>(),
  "POST /api/devices/bulk": call<
    In<typeof BulkCreateDevicesSchema>,
    Out<typeof BulkCreateDevicesResultSchema>
  >(),
  "POST /api/devices/import/check": upload<Out<typeof DeviceImportPlanSchema>>(),
  "POST /api/devices/import/{plan}": upload<Out<typeof DeviceImportResultSchema>>(),
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
  "POST /api/device/{dev_id}/install": call<NoBody, Out<typeof AgentInstallLinkSchema>>(),
  "POST /api/devices/connect": call<NoBody, Out<typeof BrokersSchema>>(),
  "POST /api/tunnels": call<In<typeof CreateTunnelSchema>, Out<typeof TunnelSessionSchema>>(),
  "POST /api/tunnels/list": call<NoBody, Out<typeof TunnelSessionsSchema>>(),
  "POST /api/tunnel/{id}/approve": call<In<typeof ApproveTunnelSchema>, Out<typeof TunnelSessionSchema>>(),
  "POST /api/tunnel/{id}/refuse": call<NoBody, Out<typeof TunnelSessionSchema>>(),
  "POST /api/tunnel/{id}/end": call<NoBody, Out<typeof TunnelSessionSchema>>(),
  "POST /api/tunnel/{id}/web": call<NoBody, Out<typeof WebTunnelOpenSchema>>(),
  "GET /api/tunnel/{id}/recording": stream<NoBody, Out<typeof RecordingLineSchema>>(),
  "POST /api/sim/{iccid}/plan": call<In<typeof SetSimPlanSchema>, Out<typeof SimPlanSavedSchema>>(),
  "POST /api/plans": call<NoBody, Out<typeof TagPlansSchema>>(),
  "POST /api/plans/tag": call<In<typeof SetTagPlanSchema>, Out<typeof TagPlansSchema>>(),
  "POST /api/dashboard/signal": call<NoBody, Out<typeof SignalDeclinesSchema>>(),
  "POST /api/uptime": call<In<typeof UptimeReportRequestSchema>, Out<typeof UptimeReportSchema>>(),
  "POST /api/uptime/pdf": download<In<typeof UptimePdfRequestSchema>>(),
  "POST /api/uptime/mail-rules": call<NoBody, Out<typeof UptimeMailRulesAnswerSchema>>(),
  "POST /api/uptime/mail-rule": call<
    In<typeof UptimeMailRuleInputSchema>,
    Out<typeof UptimeMailRuleAnswerSchema>
  >(),
  "DELETE /api/uptime/mail-rule/{id}": call<NoBody, Ok>(),
  "POST /api/events/all": stream<In<typeof EventsRequestSchema>, Out<typeof EventSchema>>(),
  "POST /api/events/{dev_id}": stream<In<typeof EventsRequestSchema>, Out<typeof EventSchema>>(),
  "POST /api/events/read": call<In<typeof EventsReadSchema>, Out<typeof EventsReadResultSchema>>(),
  "POST /api/events/unread": call<NoBody, Out<typeof EventsUnreadSchema>>(),
  "POST /api/commands/": stream<In<typeof CommandsRequestSchema>, Out<typeof CommandSchema>>(),
  "POST /api/commands/waiting": call<NoBody, Out<typeof WaitingApprovalsSchema>>(),
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
  "POST /api/rollout-offers": call<NoBody, Out<typeof RolloutOffersAnswerSchema>>(),
  "POST /api/rollout/{rollout_id}/accept": call<
    In<typeof RolloutAcceptRequestSchema>,
    Out<typeof RolloutOffersAnswerSchema>
  >(),
  "POST /api/rollout/{rollout_id}/decline": call<NoBody, Out<typeof RolloutOffersAnswerSchema>>(),
} as const;
