/** Accounts the browser tests sign in with; start-server.ts seeds the operator. */
export const ROOT_PASSWORD = "Factory-Pass-1";
export const ROOT_NEW_PASSWORD = "Changed-Pass-2";
export const OPERATOR = { username: "operator1", password: "Operator-Pass-1", fullName: "Olga Operator" };
/** An admin of the demo domain (seeded too): the fleet tests create a device, which the demo user cannot. */
export const FLEET_ADMIN = {
  username: "fleetadmin",
  password: "Fleet-Admin-Pass-1",
  fullName: "Fedor Fleet",
};
/** The admin of the notifications test's own server (support/notify-server.ts seeds it). */
export const NOTIFY_ADMIN = {
  username: "notifyadmin",
  password: "Notify-Admin-Pass-1",
  fullName: "Nina Notify",
};
/** The router of that server, which the test connects and then lets go silent. */
export const NOTIFY_ROUTER = { ident: "E2ECRIT1", key: "C3".repeat(32) };
/** A junior assistant and an assistant of the demo domain (seeded): the commands spec's four eyes. */
export const JUNIOR = { username: "junior1", password: "Junior-Pass-1", fullName: "Yuri Junior" };
export const ASSISTANT = { username: "assistant1", password: "Assistant-Pass-1", fullName: "Anna Assistant" };
