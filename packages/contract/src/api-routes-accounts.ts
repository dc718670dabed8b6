// The web's routes of sign-in, profile, registration, domains, users, superusers, policies, the
// audit log, jobs and licences (the route map: api-paths.ts).

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
import { call, type In, type NoBody, type Ok, type Out, upload } from "./api-route-kinds";
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
  LoginAnswerSchema,
  PasskeyRegisterSchema,
  SecondFactorEnrolledSchema,
  SecondFactorOptionsRequestSchema,
  SecondFactorSignInSchema,
  SecondFactorStatusSchema,
  TotpConfirmSchema,
  TotpEnrolmentSchema,
  WebAuthnOptionsSchema,
} from "./second-factor";
import type {
  HealthSchema,
  LoginRequestSchema,
  ProfileSchema,
  ProfileUpdateSchema,
  SessionUserSchema,
} from "./session";

type Status = Out<typeof SecondFactorStatusSchema>;

export const ACCOUNT_ROUTES = {
  "POST /api/login/": call<In<typeof LoginRequestSchema>, Out<typeof LoginAnswerSchema>>(),
  "POST /api/login/second-factor": call<In<typeof SecondFactorSignInSchema>, Out<typeof SessionUserSchema>>(),
  "POST /api/login/second-factor/options": call<
    In<typeof SecondFactorOptionsRequestSchema>,
    Out<typeof WebAuthnOptionsSchema>
  >(),
  "POST /api/profile/second-factor": call<NoBody, Status>(),
  "POST /api/profile/second-factor/totp/start": call<NoBody, Out<typeof TotpEnrolmentSchema>>(),
  "POST /api/profile/second-factor/totp/confirm": call<
    In<typeof TotpConfirmSchema>,
    Out<typeof SecondFactorEnrolledSchema>
  >(),
  "DELETE /api/profile/second-factor/totp": call<NoBody, Status>(),
  "POST /api/profile/second-factor/passkey/options": call<NoBody, Out<typeof WebAuthnOptionsSchema>>(),
  "POST /api/profile/second-factor/passkey": call<
    In<typeof PasskeyRegisterSchema>,
    Out<typeof SecondFactorEnrolledSchema>
  >(),
  "DELETE /api/profile/second-factor/passkey/{passkeyId}": call<NoBody, Status>(),
  "POST /api/profile/second-factor/recovery-codes": call<NoBody, Out<typeof SecondFactorEnrolledSchema>>(),
  "POST /api/user/{userId}/second-factor/reset": call<NoBody, Ok>(),
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
  "POST /api/licenses": call<NoBody, Out<typeof LicensesAnswerSchema>>(),
  "POST /api/licenses/new": call<In<typeof AddLicenseRequestSchema>, Out<typeof LicenseAnswerSchema>>(),
  "POST /api/licenses/update": call<
    In<typeof RefreshLicensesRequestSchema>,
    Out<typeof RefreshLicensesAnswerSchema>
  >(),
  "POST /api/licenses/fingerprint": call<NoBody, Out<typeof LicenseFingerprintAnswerSchema>>(),
  "POST /api/licenses/upload": call<In<typeof UploadLicenseRequestSchema>, Out<typeof LicenseAnswerSchema>>(),
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
} as const;
