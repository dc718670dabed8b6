import type { RegistrationAnswer, RegistrationRequest, ResetPasswordRequest } from "@cellfleet/contract";
import { apiRequest } from "../../app/api/http";

// The login page's reset dialog uses these calls: the answers' schemas are fetched with the call, so
// zod stays out of the /login bundle (ADR 018).
const schemas = () => import("./registry.schemas");

/** The registration form's values: the request, with the consent as a plain checkbox. */
export type RegistrationForm = Omit<RegistrationRequest, "consent"> & { consent: boolean };

/** POST /api/registry/code: e-mails a registration key to the corporate address. */
export function sendRegistrationCode(email: string): Promise<unknown> {
  return apiRequest("POST /api/registry/code", { body: { email }, quiet: true });
}

/** POST /api/registry: creates the company's domain and its admin; the password arrives by e-mail. */
export function register(values: RegistrationForm): Promise<RegistrationAnswer> {
  return apiRequest("POST /api/registry", {
    body: {
      company_name: values.company_name.trim(),
      tin: values.tin.trim(),
      full_name: values.full_name.trim(),
      email: values.email.trim(),
      phone: values.phone.trim(),
      // The form's resolver refuses to submit without the consent, so it is given here.
      consent: values.consent as true,
      key: values.key.trim(),
    },
    schema: async () => (await schemas()).RegistrationAnswerSchema,
    quiet: true,
  });
}

/** POST /api/password/forgot: e-mails a reset code and link for a username or e-mail. */
export function requestPasswordReset(login: string): Promise<unknown> {
  return apiRequest("POST /api/password/forgot", { body: { login }, quiet: true });
}

/** POST /api/password/reset: sets a new password with the e-mailed code; answers the username. */
export function resetPassword(body: ResetPasswordRequest): Promise<{ ok: true; username: string }> {
  return apiRequest("POST /api/password/reset", {
    body: { ...body },
    schema: async () => (await schemas()).ResetPasswordAnswerSchema,
    quiet: true,
  });
}
