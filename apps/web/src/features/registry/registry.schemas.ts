// Its own chunk, loaded by registry.api.ts when an answer is to be checked (ADR 018).
export { RegistrationAnswerSchema, ResetPasswordAnswerSchema } from "@cellfleet/contract";
