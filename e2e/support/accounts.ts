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
